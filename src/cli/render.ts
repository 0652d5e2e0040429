import type { StageResult, StageStatus, Trace } from '../core/index.js';

const COLORS: Record<StageStatus | 'bold' | 'dim', [number, number]> = {
  pass: [32, 39],
  note: [33, 39],
  refuse: [31, 39],
  skip: [2, 22],
  bold: [1, 22],
  dim: [2, 22],
};

/** Renders a trace as a table, one row per stage, the deciding row marked with ">". */
export function renderTrace(result: Trace, options: { readonly color: boolean }): string {
  const paint = (style: keyof typeof COLORS, text: string) =>
    options.color ? `\u001b[${COLORS[style][0]}m${text}\u001b[${COLORS[style][1]}m` : text;
  const lines: string[] = [];
  const where = result.simulated ? `${result.platform}, simulated` : `${result.platform}, this machine's filesystem`;
  lines.push(`${paint('bold', 'trace')} ${result.input}`);
  lines.push(`${paint('bold', 'root')}  ${result.root}${result.rootPath ? ` = ${result.rootPath}` : ''} (${where})`, '');

  const rows: readonly StageResult[] = result.stage === 'root' ? result.rootStages : result.stages;
  const stageWidth = Math.max(5, ...rows.map((stage) => stage.stage.length));
  lines.push(`  ${'STAGE'.padEnd(stageWidth)}  ${'STATUS'.padEnd(6)}  INPUT -> OUTPUT`);
  const indent = ' '.repeat(stageWidth + 12);
  rows.forEach((stage, index) => {
    const deciding = result.stage === 'root' ? index === rows.length - 1 : stage.stage === result.stage;
    const marker = deciding ? paint('bold', '>') : ' ';
    const flow = stage.output === null || stage.output === stage.input ? stage.input : `${stage.input} -> ${stage.output}`;
    lines.push(`${marker} ${stage.stage.padEnd(stageWidth)}  ${paint(stage.status, stage.status.padEnd(6))}  ${flow}`);
    lines.push(`${indent}${paint('dim', `rule: ${stage.rule}`)}`);
    if (stage.note !== '') lines.push(`${indent}note: ${stage.note}`);
  });
  lines.push('');
  const verdictStyle = result.verdict === 'inside' ? 'pass' : 'refuse';
  const decided = result.code ? ` (${result.code} at ${result.stage})` : ` (at ${result.stage})`;
  lines.push(`${paint('bold', 'verdict')} ${paint(verdictStyle, result.verdict.toUpperCase())}${decided}`);
  lines.push(`${paint('bold', 'reason')}  ${result.reason}`);
  if (result.path !== null) lines.push(`${paint('bold', 'path')}    ${result.path}`);
  return `${lines.join('\n')}\n`;
}
