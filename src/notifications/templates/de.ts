import type { LanguageMessages } from "../../ports/config.js";
import { htmlMail, linkParagraph } from "./html-layout.js";

export const germanMessages: LanguageMessages = {
  "email.verification": {
    subject: "Bestätigen Sie Ihre E-Mail-Adresse",
    text: `Hallo {{displayName}},

bitte bestätigen Sie Ihre E-Mail-Adresse über diesen Link:
{{link}}

Oder geben Sie diesen Code ein: {{code}}

Der Code ist {{validity}} gültig. Falls Sie dies nicht angefordert haben, können Sie diese Nachricht ignorieren.
`,
    html: htmlMail("de", [
      "Hallo {{displayName}},",
      "bitte bestätigen Sie Ihre E-Mail-Adresse über diesen Link:",
      linkParagraph("E-Mail-Adresse bestätigen"),
      "Oder geben Sie diesen Code ein: <strong>{{code}}</strong>",
      "Der Code ist {{validity}} gültig. Falls Sie dies nicht angefordert haben, können Sie diese Nachricht ignorieren.",
    ]),
  },
  "email.initialization": {
    subject: "Richten Sie Ihr Konto ein",
    text: `Hallo {{displayName}},

für Sie wurde ein Konto mit dem Benutzernamen {{username}} erstellt. Über diesen Link richten Sie es ein:
{{link}}

Oder geben Sie diesen Code ein: {{code}}

Der Code ist {{validity}} gültig. Falls Sie dies nicht erwartet haben, können Sie diese Nachricht ignorieren.
`,
    html: htmlMail("de", [
      "Hallo {{displayName}},",
      "für Sie wurde ein Konto mit dem Benutzernamen <strong>{{username}}</strong> erstellt. Über diesen Link richten Sie es ein:",
      linkParagraph("Konto einrichten"),
      "Oder geben Sie diesen Code ein: <strong>{{code}}</strong>",
      "Der Code ist {{validity}} gültig. Falls Sie dies nicht erwartet haben, können Sie diese Nachricht ignorieren.",
    ]),
  },
  "email.password_reset": {
    subject: "Setzen Sie Ihr Passwort zurück",
    text: `Hallo {{displayName}},

für das Konto {{username}} wurde das Zurücksetzen des Passworts angefordert. Über diesen Link wählen Sie ein neues:
{{link}}

Oder geben Sie diesen Code ein: {{code}}

Der Code ist {{validity}} gültig. Falls Sie dies nicht angefordert haben, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.
`,
    html: htmlMail("de", [
      "Hallo {{displayName}},",
      "für das Konto <strong>{{username}}</strong> wurde das Zurücksetzen des Passworts angefordert. Über diesen Link wählen Sie ein neues:",
      linkParagraph("Passwort zurücksetzen"),
      "Oder geben Sie diesen Code ein: <strong>{{code}}</strong>",
      "Der Code ist {{validity}} gültig. Falls Sie dies nicht angefordert haben, ignorieren Sie diese Nachricht: Ihr Passwort bleibt unverändert.",
    ]),
  },
  "email.passkey_registration": {
    subject: "Registrieren Sie Ihren Passkey",
    text: `Hallo {{displayName}},

über diesen Link registrieren Sie einen Passkey für das Konto {{username}}:
{{link}}

Der Link ist {{validity}} gültig. Falls Sie dies nicht erwartet haben, können Sie diese Nachricht ignorieren.
`,
    html: htmlMail("de", [
      "Hallo {{displayName}},",
      "über diesen Link registrieren Sie einen Passkey für das Konto <strong>{{username}}</strong>:",
      linkParagraph("Passkey registrieren"),
      "Der Link ist {{validity}} gültig. Falls Sie dies nicht erwartet haben, können Sie diese Nachricht ignorieren.",
    ]),
  },
  "phone.verification": {
    text: "Ihr Bestätigungscode lautet {{code}}. Er ist {{validity}} gültig.",
  },
};
