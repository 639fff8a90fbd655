export { buildOpenApi, type ResponseExamples } from './openapi';
