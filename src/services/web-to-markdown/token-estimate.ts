export function estimateHtmlTokens(html: string): number { return Math.round(html.length / 4); }
