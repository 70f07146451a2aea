// What node's HTTP parser found wrong in a request it refused before any handler ran (api/app.ts clientError): the
// 400's message names the part of the request at fault, where it said only "Malformed HTTP request" (h74fuzz: an
// X-Service-Key holding a control character, a raw 0xFF in the target, a Content-Length of "abc" all read alike).

/** node:http's parser codes (llhttp) and what each means for the sender. */
const BY_CODE: Record<string, string> = {
  HPE_INVALID_URL: 'the request target holds a character that must be percent-encoded (a control character or a byte over 0x7F)',
  HPE_INVALID_CONSTANT: 'the request line is not METHOD target HTTP/1.1 (a space in the target must be sent as %20)',
  HPE_INVALID_VERSION: 'the request line does not end in HTTP/1.0 or HTTP/1.1 followed by CRLF',
  HPE_STRICT: 'lines must end in CRLF',
  HPE_LF_EXPECTED: 'lines must end in CRLF',
  HPE_CR_EXPECTED: 'lines must end in CRLF',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length must be a non-negative whole number of bytes, sent once',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length must not be sent with Transfer-Encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding must end in chunked and must not be sent with Content-Length',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size of the chunked body is not hexadecimal',
  HPE_INVALID_EOF_STATE: 'the connection closed before the request was complete',
};

/** The 400's message for a parser error: what was wrong where node says it, else the general words. */
export function malformedMessage(code: string | undefined, reason: unknown): string {
  if (code === 'HPE_INVALID_HEADER_TOKEN') {
    return /value/i.test(String(reason))
      ? 'Malformed HTTP request: a header value holds a control character (only visible ASCII, spaces and tabs are allowed)'
      : 'Malformed HTTP request: a header line is not "Name: value" (a name holds a space, a colon is missing, or a character a header name may not have)';
  }
  const what = code ? BY_CODE[code] : undefined;
  return what ? `Malformed HTTP request: ${what}` : 'Malformed HTTP request';
}
