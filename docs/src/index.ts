export { buildOpenApi } from './openapi';
