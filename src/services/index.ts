/**
 * The services of the gateway, in the order they are built at boot. A service that has not
 * landed is simply absent: its routes answer 404 and /v1/health reports it `down`.
 */
import { consensusFactory } from './consensus/index.ts';
import { llmShieldFactory } from './llm-shield/index.ts';
import { semanticCacheFactory } from './semantic-cache/index.ts';
import { sepaVopFactory } from './sepa-vop/index.ts';
import { tokenSlimmerFactory } from './tokenslimmer/index.ts';
import type { ServiceFactory } from './types.ts';
import { webToMarkdownService } from './web-to-markdown/index.ts';

export const SERVICE_FACTORIES: readonly ServiceFactory[] = [webToMarkdownService, semanticCacheFactory, llmShieldFactory, consensusFactory, sepaVopFactory, tokenSlimmerFactory];
