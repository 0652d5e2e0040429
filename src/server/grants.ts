import { pathToUri, prepareRoot, secretPolicy, withSecrets, type FileSystemPort, type Platform, type Policy, type PreparedRoot, type SecretChoice, type SecretDenyRules, type Spellings } from '../core/index.js';
import { sameWorkspace } from '../shared/grants.js';

export { sameWorkspace };

export type Rights = 'read' | 'read-write';

export interface Grant {
  /** The workspace URI as this server publishes it (built from the path, so it round-trips). */
  readonly uri: string;
  /** The URI exactly as it was given at launch. */
  readonly given: string;
  readonly path: string;
  readonly realPath: string;
  readonly rights: Rights;
  readonly root: Extract<PreparedRoot, { ok: true }>;
}

export interface GrantSpec {
  readonly uri: string;
  readonly rights: Rights;
}

export interface GrantOptions {
  readonly platform: Platform;
  readonly policy: Partial<Policy>;
  readonly fs: FileSystemPort;
  /** This machine's other spellings of a folder (WSL, mapped drives): `readSpellings`. */
  readonly spellings?: Spellings;
  /** Whether a path is an existing directory (following links: the root's own links are the user's layout). */
  readonly isDirectory: (path: string) => boolean;
  /** The secrets policy every workspace gets; none leaves the secrets stage skipped. */
  readonly secrets?: SecretChoice;
  /** A host's deny rules read from a workspace's folder (claudeCodeDeny.ts), when the choice asks for them. */
  readonly denyRules?: (workspace: string) => SecretDenyRules | undefined;
}

/**
 * Turns launch arguments into grants. Every workspace goes through the core's root conversion;
 * a refused or missing root is an error, never a silently wider root. The same workspace named
 * twice keeps the narrower rights.
 */
export function buildGrants(specs: readonly GrantSpec[], options: GrantOptions): { grants: Grant[]; errors: string[]; warnings: string[] } {
  const grants: Grant[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  if (specs.length === 0) errors.push('no workspace granted: give at least one --workspace <uri> or --read-only-workspace <uri>');
  for (const spec of specs) {
    const root = prepareRoot(spec.uri, { platform: options.platform, policy: options.policy, fs: options.fs, ...(options.spellings ? { spellings: options.spellings } : {}) });
    if (!root.ok) {
      errors.push(`workspace ${spec.uri} refused at ${root.stage} (${root.code}): ${root.reason}`);
      continue;
    }
    if (!options.isDirectory(root.path)) {
      errors.push(`workspace ${spec.uri} (${root.path}) is not an existing directory`);
      continue;
    }
    // Folding case where the filesystem does not would reach a sibling whose name differs only in case.
    if (options.policy.case === 'insensitive') {
      const probed = prepareRoot(spec.uri, { platform: options.platform, policy: { ...options.policy, case: 'auto' }, fs: options.fs, ...(options.spellings ? { spellings: options.spellings } : {}) });
      if (probed.ok && !probed.comparison.foldCase) {
        errors.push(
          `--case insensitive is refused for workspace ${spec.uri}: its filesystem keeps names that differ only in case apart (${probed.comparison.basis}), ` +
            'so ignoring case would let a path reach a sibling folder. Leave --case at auto; the inspector can still simulate it.',
        );
        continue;
      }
    }
    // One folder under two names (a link to it, say) is one workspace: it keeps the narrower rights.
    const realPath = root.realPath ?? root.path;
    const twin = grants.findIndex((grant) => sameWorkspace(grant.root, root.path) || sameWorkspace(grant.root, realPath) || grant.realPath === realPath);
    if (twin !== -1) {
      const narrower: Rights = grants[twin]!.rights === 'read' || spec.rights === 'read' ? 'read' : 'read-write';
      warnings.push(`workspace ${spec.uri} is granted twice; keeping ${narrower}`);
      grants[twin] = { ...grants[twin]!, rights: narrower };
      continue;
    }
    const secrets = options.secrets;
    const deny = secrets?.claudeCodeDeny ? options.denyRules?.(realPath) : undefined;
    grants.push({
      uri: pathToUri(root.path, options.platform),
      given: spec.uri,
      path: root.path,
      realPath,
      rights: spec.rights,
      root: secrets === undefined ? root : withSecrets(root, secretPolicy({ ...secrets, deny })),
    });
  }
  return { grants, errors, warnings };
}
