const MS_PER_DAY = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on `toISOString` writes a signed six-digit year. */
const YEAR_10000_MS = 253_402_300_800_000;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * `new Date(ms).toISOString()` for a time from 1970 to 9999, in arithmetic: a file's times are
 * written on every `get_file_info`, and the Date builtin is a call into the runtime that costs
 * more than the rest of the answer's formatting. The calendar is the proleptic Gregorian one
 * Date uses (days to civil date as in Howard Hinnant's `civil_from_days`).
 */
export function isoTimeOfMs(ms: number): string {
  if (!(Number.isInteger(ms) && ms >= 0 && ms < YEAR_10000_MS)) return new Date(ms).toISOString();
  const days = Math.floor(ms / MS_PER_DAY);
  const msOfDay = ms - days * MS_PER_DAY;
  // Days since 0000-03-01, in 400-year eras of 146,097 days (a year here starts on March 1).
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(msOfDay / 3_600_000);
  const minutes = Math.floor(msOfDay / 60_000) % 60;
  const seconds = Math.floor(msOfDay / 1000) % 60;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(msOfDay % 1000, 3)}Z`;
}

/** A time in nanoseconds as an ISO 8601 string, rounded to the millisecond as Node's own Stats dates are. */
export function isoTimeOfNs(nanoseconds: bigint): string {
  return isoTimeOfMs(Math.round(Number(nanoseconds) / 1e6));
}
