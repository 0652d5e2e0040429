export * from './types.js';
export { rootToPath, prepareRoot, type RootConversion, type PreparedRoot, type RootOptions, type PrepareOptions } from './root.js';
export { trace, traceAgainst, verdictFor, type TraceOptions } from './trace.js';
export { pathToUri } from './uri.js';
export { isInside } from './containment.js';
export { splitAbsolute, joinSplit, type SplitPath } from './paths.js';
export { comparisonKey, describeComparison, type Comparison } from './stages/casePolicy.js';
export { REFUSAL_CODES } from './codes.js';
export { policyFromFlags, CASE_POLICIES, SYMLINK_POLICIES, type PolicyFlags } from './policy.js';
