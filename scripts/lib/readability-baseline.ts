/**
 * The extraction baseline the API-01 quality scripts print beside the service: @mozilla/readability
 * on a linkedom document, its article HTML turned into Markdown by turndown.
 */
import { createRequire } from 'node:module';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

// turndown ships no type declarations: the one call used here is typed by hand.
type TurndownCtor = new (options: Record<string, string>) => { turndown(html: string): string };
const TurndownService = createRequire(import.meta.url)('turndown') as TurndownCtor;

/** Readability's article as Markdown ('' when it finds none). */
export function readabilityBaseline(html: string): string {
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as Document).parse();
  if (!article?.content) return '';
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  return turndown.turndown(article.content);
}
