/** SSRF-safe fetching shared by services that load pages (API-01). */
export { classifyAddress, type AddressVerdict } from './address.ts';
export { charsetFromContentType, decodeBody, type DecodedText } from './charset.ts';
export { SafeFetcher, systemResolver, type FetchedPage, type SafeFetchOptions } from './safe-fetch.ts';
export { checkTarget, checkUrlShape, literalAddress, type CheckedTarget, type ResolvedAddress, type Resolver, type TargetPolicy } from './target.ts';
