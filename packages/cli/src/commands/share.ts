import type { Command } from 'commander';
import { CliError } from '../output/errors.js';

/** `share` is the same command for every shareable resource: these are its flags, body and output. */
export interface ShareFlags {
  public?: boolean;
  org?: string | false;
}

export interface SharingState {
  public_share: boolean;
  shared_with_org: boolean;
  organization_id: string | null;
}

export function withShareOptions(command: Command, notes: { public: string; org: string }): Command {
  return command
    .description('share publicly (--public / --no-public) or with an organization (--org ID / --no-org)')
    .option('--public', notes.public)
    .option('--no-public', 'stop public sharing')
    .option('--org <organizationId>', notes.org)
    .option('--no-org', 'stop organization sharing');
}

export function shareBody(opts: ShareFlags) {
  if (opts.public === undefined && opts.org === undefined) {
    throw new CliError('Say what to share: --public, --no-public, --org ID or --no-org.', 'share_body_empty', 2);
  }
  return {
    ...(opts.public !== undefined ? { public_share: opts.public } : {}),
    ...(opts.org === false ? { shared_with_org: false } : {}),
    ...(typeof opts.org === 'string' ? { shared_with_org: true, organization_id: opts.org } : {}),
  };
}

export const describeSharing = (s: SharingState) =>
  [`public: ${s.public_share ? 'yes' : 'no'}`, `organization: ${s.shared_with_org ? s.organization_id : 'no'}`].join('\n');
