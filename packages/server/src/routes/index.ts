import type { RouteDef } from '../route.js';
import { accountRoutes } from './account.js';
import { brandRoutes } from './brand.js';
import { askRoutes } from './asks.js';
import { creditRoutes } from './credits.js';
import { crawlRoutes } from './crawls.js';
import { extractionRoutes } from './extraction.js';
import { metaRoutes } from './meta.js';
import { monitorRoutes } from './monitors.js';
import { publicRoutes } from './public.js';
import { sessionRoutes } from './sessions.js';
import { searchRoutes } from './search.js';
import { tokenRoutes } from './tokens.js';
import { webhookRoutes } from './webhooks.js';
import { workflowRoutes } from './workflows.js';

/** Every operation of the API. A capability adds its routes file here. */
export const routes: RouteDef[] = [...metaRoutes, ...tokenRoutes, ...accountRoutes, ...brandRoutes, ...creditRoutes, ...webhookRoutes, ...askRoutes, ...sessionRoutes, ...publicRoutes, ...monitorRoutes, ...workflowRoutes, ...searchRoutes, ...extractionRoutes, ...crawlRoutes];
