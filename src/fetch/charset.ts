/**
 * Bytes of a fetched page -> text, with the encoding the page declares (WHATWG Encoding / HTML
 * "determining the character encoding", simplified): byte order mark, then the Content-Type
 * `charset`, then a `<meta charset>` / `<meta http-equiv>` in the first 1024 bytes, then UTF-8
 * when the bytes are valid UTF-8, else windows-1252 (the web's legacy default).
 */

export interface DecodedText {
  readonly text: string;
  /** The encoding actually used (WHATWG name, e.g. `utf-8`, `shift_jis`). */
  readonly charset: string;
}

const META_PRESCAN_BYTES = 1024;
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i;

/** Reads the `charset` parameter of a Content-Type header value; null when absent. */
export function charsetFromContentType(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m ? m[1]!.trim() : null;
}

/** Returns a TextDecoder for a label, or null when the label is unknown. */
function decoderFor(label: string, fatal = false): TextDecoder | null {
  try {
    return new TextDecoder(label.trim().toLowerCase(), { fatal });
  } catch {
    return null;
  }
}

/**
 * Decodes page bytes to text. `headerCharset` is the Content-Type `charset` (or null);
 * `isHtml` enables the `<meta>` prescan.
 */
export function decodeBody(bytes: Uint8Array, headerCharset: string | null, isHtml: boolean): DecodedText {
  const bom = sniffBom(bytes);
  if (bom) return { text: new TextDecoder(bom).decode(bytes), charset: bom };
  if (headerCharset) {
    const dec = decoderFor(headerCharset);
    if (dec) return { text: dec.decode(bytes), charset: dec.encoding };
  }
  if (isHtml) {
    const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, META_PRESCAN_BYTES)).toString('latin1');
    const m = META_CHARSET.exec(head);
    if (m) {
      const dec = decoderFor(m[1]!);
      // A page cannot declare UTF-16 in an ASCII-compatible <meta>: the HTML standard reads it as UTF-8.
      if (dec && !dec.encoding.startsWith('utf-16')) return { text: dec.decode(bytes), charset: dec.encoding };
    }
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), charset: 'windows-1252' };
  }
}

function sniffBom(b: Uint8Array): string | null {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  return null;
}
