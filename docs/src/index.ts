export { buildLlmsTxt, GUIDES, type Guide, type LlmsLinks, repositoryLlmsTxt } from './llms';
export { buildOpenApi, ERRORS_TAG, type ResponseExamples } from './openapi';
