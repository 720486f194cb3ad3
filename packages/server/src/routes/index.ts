import type { RouteDef } from '../route.js';
import { creditRoutes } from './credits.js';
import { metaRoutes } from './meta.js';
import { tokenRoutes } from './tokens.js';

/** Every operation of the API. A capability adds its routes file here. */
export const routes: RouteDef[] = [...metaRoutes, ...tokenRoutes, ...creditRoutes];
