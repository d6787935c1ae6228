// Hand-written multipart/form-data parts, for tests that write a form onto a socket of their own.

/** The parts of a form with `boundary`: a text part, a file part (a PDF unless told), the closing delimiter. */
export function formParts(boundary: string) {
  return {
    text: (name: string, value: string | Buffer) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n`),
        Buffer.from(value),
        Buffer.from('\r\n'),
      ]),
    file: (name: string, filename: string, content: Buffer, type = 'application/pdf') =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${filename}"\r\ncontent-type: ${type}\r\n\r\n`,
        ),
        content,
        Buffer.from('\r\n'),
      ]),
    end: Buffer.from(`--${boundary}--\r\n`),
  };
}
