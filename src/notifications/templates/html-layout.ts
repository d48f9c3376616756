/**
 * Wraps the paragraphs of a built-in mail in a minimal HTML document. The paragraphs are template
 * text (with placeholders), never values: values are escaped when the template is filled.
 */
export function htmlMail(language: string, paragraphs: readonly string[]): string {
  const body = paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join("\n");
  return `<!DOCTYPE html>
<html lang="${language}">
<head><meta charset="utf-8"></head>
<body style="font-family: sans-serif; line-height: 1.5;">
${body}
</body>
</html>
`;
}

/** A button-like link to `{{link}}`, with the link also written out for mail clients that hide links. */
export function linkParagraph(label: string): string {
  return `<a href="{{link}}" style="display: inline-block; padding: 0.6em 1.2em; background: #1f5fbf; color: #ffffff; text-decoration: none; border-radius: 4px;">${label}</a><br>
<a href="{{link}}">{{link}}</a>`;
}
