/** The negotiated era: `legacy` is 2025-11-25 (initialize), `modern` is 2026-07-28. */
export type Era = 'legacy' | 'modern';
