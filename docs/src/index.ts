export { buildLlmsTxt, GUIDES, type Guide, type LlmsLinks, repositoryLlmsTxt } from './llms';
export { buildOpenApi, type ResponseExamples } from './openapi';
