import { Command } from 'commander';
import { createRequire } from 'node:module';
import { askCommand } from './commands/ask.js';
import { searchCommand } from './commands/search.js';
import { creditsCommand } from './commands/credits.js';
import { extractCommand } from './commands/extract.js';
import { mcpCommand } from './commands/mcp.js';
import { monitorsCommand } from './commands/monitors.js';
import { brandCommand } from './commands/brand.js';
import { mapCommand } from './commands/map.js';
import { serveCommand, workerCommand } from './commands/serve.js';
import { sessionsCommand } from './commands/sessions.js';
import { tokensCommand } from './commands/tokens.js';
import { crawlCommand, crawlsCommand } from './commands/crawl.js';
import { workflowsCommand } from './commands/workflows.js';

/** The CLI's own version; read from package.json (one level up from src/ and dist/ alike) so --version loads no engine. */
const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/**
 * Builds every command cheaply: command modules import only commander and light helpers at the top;
 * the engine, the server, ink and MCP are imported inside the actions that use them, so `--version`,
 * `--help` and remote commands start fast.
 */
export function buildProgram(): Command {
  return new Command('wvr')
    .description('web monitoring and research for software agents')
    .version(VERSION)
    .option('--data <dir>', 'data folder of the local engine (default ~/.wvr, env WVR_DATA_DIR)')
    .option('--database <url>', 'PostgreSQL database of the local engine instead of the data folder\'s SQLite file (env WVR_DATABASE_URL)')
    .option('--remote <url>', 'talk to a wvr server instead of the local engine (env WVR_API_URL)')
    .option('--token <token>', 'API token for --remote (env WVR_API_TOKEN)')
    .option('--user <email>', 'local account to act as (env WVR_USER)')
    .option('--json', 'machine-readable output: one JSON document on stdout')
    .showHelpAfterError()
    .addCommand(serveCommand())
    .addCommand(workerCommand())
    .addCommand(tokensCommand())
    .addCommand(creditsCommand())
    .addCommand(mcpCommand())
    .addCommand(monitorsCommand())
    .addCommand(brandCommand())
    .addCommand(mapCommand())
    .addCommand(searchCommand())
    .addCommand(askCommand())
    .addCommand(extractCommand())
    .addCommand(sessionsCommand())
    .addCommand(crawlCommand())
    .addCommand(crawlsCommand())
    .addCommand(workflowsCommand());
}
