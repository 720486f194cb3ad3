/**
 * NO_COLOR (no-color.org) turns colors off unless FORCE_COLOR asks for them. ink colors through
 * chalk, which reads only FORCE_COLOR, so NO_COLOR is passed on as FORCE_COLOR=0. Runs before ink loads.
 */
export function applyColorPreference(env: NodeJS.ProcessEnv = process.env): void {
  if (env.NO_COLOR && env.FORCE_COLOR === undefined) env.FORCE_COLOR = '0';
}
