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
  "email.password_reset": {
    subject: "Reset your password",
    text: `Hello {{displayName}},

Someone asked to reset the password of the account {{username}}. Open this link to choose a new one:
{{link}}

Or enter this code: {{code}}

The code is valid for {{validity}}. If you did not ask for this, ignore this message: your password stays as it is.
`,
    html: htmlMail("en", [
      "Hello {{displayName}},",
      "Someone asked to reset the password of the account <strong>{{username}}</strong>. Open this link to choose a new one:",
      linkParagraph("Reset password"),
      "Or enter this code: <strong>{{code}}</strong>",
      "The code is valid for {{validity}}. If you did not ask for this, ignore this message: your password stays as it is.",
    ]),
  },
  "email.passkey_registration": {
    subject: "Register your passkey",
    text: `Hello {{displayName}},

Open this link to register a passkey for the account {{username}}:
{{link}}

The link is valid for {{validity}}. If you did not expect this, you can ignore this message.
`,
    html: htmlMail("en", [
      "Hello {{displayName}},",
      "Open this link to register a passkey for the account <strong>{{username}}</strong>:",
      linkParagraph("Register passkey"),
      "The link is valid for {{validity}}. If you did not expect this, you can ignore this message.",
    ]),
  },
  "phone.verification": {
    text: "Your verification code is {{code}}. It is valid for {{validity}}.",
  },
};
