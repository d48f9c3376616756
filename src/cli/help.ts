import { defaultBulkImportOptions } from "../core/bulk/import-human-users.js";
import { csvColumns } from "./csv-mapping.js";

/** The command's one line of usage: what a usage error prints, with where to read more. */
export const usageLine = "Usage: human-users import FILE (--database-url URL | --data-dir DIR) --org ID [options]";

export const usage = `${usageLine}

Imports users (ZITADEL ImportHumanUser requests) from FILE into an organization. FILE is JSON Lines
(one request per line) or CSV (by its .csv extension, or --format). Migrations run first (not in
a dry run). Run it again on the same file to finish an interrupted import: users already there
are counted as such and never duplicated. A row is "already there" only when the same user was
imported before (the same normalized request: username, profile, email, phone, password hash
and whether a change is required, identity-provider links, a passwordless registration asked for,
organization); a row whose username or identity-provider account another
user holds is a conflict (code 6): it fails, and the report names the earlier line or the stored
user's id.

Where to:
  --database-url URL      PostgreSQL (e.g. postgres://user@host:5432/db; ?options=-c%20search_path%3Dmyschema
                          for another schema)
  --data-dir DIR          PGlite, durable in DIR (created when missing)
  --org ID                the organization the users go into
  --create-org            create the organization (no domains, default policy) when it does not exist

Options:
  --format jsonl|csv      the file's format (default: csv for *.csv, else jsonl)
  --report FILE           where failed rows are listed (default: FILE.report.jsonl; never the
                          input or the links file)
  --report-existing       list rows already there in the report too
  --links FILE            where passwordless registration links are appended (default
                          FILE.links.jsonl; created only when a row asks for one)
  --dry-run               check every row against the database (validation, hashes, conflicts)
                          and write nothing (no migration, organization or PGlite folder): the
                          same summary and report as a real run; a database without the tables is
                          checked as an empty one, and the summary says so
  --no-mail               import without initialization codes and mails (for hosts that send
                          their own invitations); needs no keys
  --batch-size N          users per database write (default ${defaultBulkImportOptions.batchSize})
  --concurrency N         users checked at the same time (default ${defaultBulkImportOptions.concurrency})
  --parallel-batches N    batches written at the same time (default ${defaultBulkImportOptions.parallelBatches})
  --origin URL            the application's public URL, which the links in the mails and the links file
                          start with; required with the keys unless --no-mail (then a row asking for
                          a link fails without it)
  --progress-interval S   seconds between progress lines when not on a terminal (1 to 2147483, default 10)
  --quiet                 no progress and no notes, only the summary
  -h, --help              this text
  -v, --version           the version of human-users

CSV columns (header row required, names ignoring case, each column once, empty cell = not given):
  ${csvColumns.join(", ")}
  Booleans: true/false, yes/no, 1/0.

Passwords: a plain password is hashed with the library's default hasher, which is slow by design
(hundreds of milliseconds each, a few users per second per core): a file of plain passwords takes
days per million users. Prefer passwordHash (bcrypt, argon2, scrypt, PBKDF2, ...), which is only
checked, never recomputed.

The import acts as an instance administrator in --org. Initialization mails are queued in the
database's outbox for the application's delivery worker; nothing is sent from here. Their codes
are keyed with the application's keys, which the import needs: HUMAN_USERS_CODE_HMAC_KEY (base64,
32 to 1024 bytes), HUMAN_USERS_ENCRYPTION_KEY (base64, 32 bytes) and HUMAN_USERS_KEY_ID
(HUMAN_USERS_PREVIOUS_KEYS: retired keys, keyId:hmacKey:encryptionKey separated by commas).
Without them the import refuses to start, unless --no-mail; with them, so it does without
--origin, unless --no-mail. Firebase hashes in the $f_scrypt$
spelling need the project's signer key: HUMAN_USERS_FIREBASE_SIGNER_KEY (its base64_signer_key).

The report (JSON Lines) has one line per problem: {"line", "status", "code", "error", "field",
"reason", "earlierLine" or "userId"}; it never holds a password or a hash.

A row with requestPasswordlessRegistration gets a registration link, which is never mailed: the
links file (JSON Lines, {"line", "userId", "link", "lifetime", "expiresAt"}) is where each one is
kept. Send each link to its user. The file holds codes: it is created readable by its owner only,
lines are appended (a second run keeps the first run's), and it should be deleted once sent.
Without the application's keys (--no-mail), or with them and --no-mail but no --origin, such a
row fails with code 9.

Ctrl-C stops after the batch in progress and prints the summary (a second Ctrl-C quits at once).
Exit status: 0 all rows imported or already there, 1 some rows failed (conflicts included),
2 could not run, 130 interrupted.
`;
