/** The JSON of each value marked by `encodedOnce`, made when it was marked. */
const encodings = new WeakMap<object, string>();

function freezeDeeply(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) freezeDeeply(member);
}

/**
 * Marks a result that every call answers unchanged, such as the workspace listing (the grants,
 * the sandbox and the anchors are fixed once the server starts): it is frozen, so nothing can
 * change it behind its encoding, and encoded now, once. Encoding the listing costs more than
 * making it, and a client asks for it at the start of every session.
 */
export function encodedOnce<T extends object>(value: T): T {
  freezeDeeply(value);
  encodings.set(value, JSON.stringify(value));
  return value;
}

/** `JSON.stringify(message)`, with a result marked by `encodedOnce` taken as it was encoded. */
export function encodeMessage(message: object): string {
  const result = 'result' in message ? message.result : undefined;
  const encoded = typeof result === 'object' && result !== null ? encodings.get(result) : undefined;
  if (encoded === undefined) return JSON.stringify(message);
  let members = '';
  for (const key of Object.keys(message)) {
    const json = key === 'result' ? encoded : JSON.stringify(message[key as keyof typeof message]);
    if (json !== undefined) members += `${members === '' ? '' : ','}${JSON.stringify(key)}:${json}`;
  }
  return `{${members}}`;
}
