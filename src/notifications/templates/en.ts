import type { LanguageMessages } from "../../ports/config.js";
import { htmlMail, linkParagraph } from "./html-layout.js";

export const englishMessages: LanguageMessages = {
  "email.verification": {
    subject: "Verify your email address",
    text: `Hello {{displayName}},

Please verify your email address by opening this link:
{{link}}

Or enter this code: {{code}}

The code is valid for {{validity}}. If you did not ask for this, you can ignore this message.
`,
    html: htmlMail("en", [
      "Hello {{displayName}},",
      "Please verify your email address by opening this link:",
      linkParagraph("Verify email address"),
      "Or enter this code: <strong>{{code}}</strong>",
      "The code is valid for {{validity}}. If you did not ask for this, you can ignore this message.",
    ]),
  },
  "email.initialization": {
    subject: "Set up your account",
    text: `Hello {{displayName}},

An account with the username {{username}} has been created for you. Open this link to set it up:
{{link}}

Or enter this code: {{code}}

The code is valid for {{validity}}. If you did not expect this, you can ignore this message.
`,
    html: htmlMail("en", [
      "Hello {{displayName}},",
      "An account with the username <strong>{{username}}</strong> has been created for you. Open this link to set it up:",
      linkParagraph("Set up account"),
      "Or enter this code: <strong>{{code}}</strong>",
      "The code is valid for {{validity}}. If you did not expect this, you can ignore this message.",
    ]),
  },
  "phone.verification": {
    text: "Your verification code is {{code}}. It is valid for {{validity}}.",
  },
};
