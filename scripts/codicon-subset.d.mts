export function usedCodicons(files: readonly string[]): Set<string>;
export function subsetCodiconCss(css: string, used: ReadonlySet<string>): string;
export function webviewSources(root: string): string[];
