import { parseArgs } from "node:util";
import { closestName } from "../shared/closest-name.js";
import type { ImportCommand } from "./import-command.js";
import type { StoreTarget } from "./open-storage.js";
import { formatOf, type InputFormat } from "./rows.js";
import { errorCode } from "../shared/error-code.js";
import { originProblem } from "../core/config-check.js";

export type ParsedArguments =
  | { readonly kind: "help" }
  | { readonly kind: "version" }
  | { readonly kind: "import"; readonly command: ImportCommand }
  | { readonly kind: "error"; readonly message: string };

const options = {
  "database-url": { type: "string" },
  "data-dir": { type: "string" },
  org: { type: "string" },
  "create-org": { type: "boolean" },
  format: { type: "string" },
  report: { type: "string" },
  links: { type: "string" },
  "report-existing": { type: "boolean" },
  "dry-run": { type: "boolean" },
  "no-mail": { type: "boolean" },
  "batch-size": { type: "string" },
  concurrency: { type: "string" },
  "parallel-batches": { type: "string" },
  origin: { type: "string" },
  "progress-interval": { type: "string" },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** A value that could not be read from the arguments, and why. */
class Refused {
  constructor(readonly message: string) {}
}

/** Digits only: `Number()` would also take `1e3`, `0x10` and ` 5`. */
function positiveWhole(name: string, text: string | undefined): number | undefined | Refused {
  if (text === undefined) return undefined;
  const value = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(value) && value >= 1 ? value : new Refused(`--${name} must be a whole number of at least 1`);
}

/** The longest a timer waits is 2^31 - 1 ms: past it, node fires at once (and progress lines would flood). */
const MAX_INTERVAL_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

function intervalSeconds(text: string | undefined): number | undefined | Refused {
  const value = positiveWhole("progress-interval", text);
  if (typeof value === "number" && value <= MAX_INTERVAL_SECONDS) return value;
  return value === undefined ? undefined : new Refused(`--progress-interval must be a whole number of seconds from 1 to ${MAX_INTERVAL_SECONDS}`);
}

/** A path option given as `--report=`: the folder of "" is ".", so it would pass the start's check and fail after users were written. */
function pathOption(name: string, value: string | undefined): string | undefined | Refused {
  return value === "" ? new Refused(`--${name} needs a value`) : value;
}

function storeTarget(databaseUrl: string | undefined, dataDir: string | undefined): StoreTarget | Refused {
  if (databaseUrl !== undefined && dataDir !== undefined) return new Refused("give --database-url or --data-dir, not both");
  // Empty, pg would connect where the PG* variables point, and PGlite would fail on the path "".
  if (databaseUrl === "") return new Refused("--database-url needs a value");
  if (dataDir === "") return new Refused("--data-dir needs a value");
  if (databaseUrl !== undefined) return { databaseUrl };
  if (dataDir !== undefined) return { dataDir };
  return new Refused("--database-url or --data-dir is required");
}

function inputFormat(given: string | undefined, file: string): InputFormat | Refused {
  if (given === undefined) return formatOf(file);
  return given === "jsonl" || given === "csv" ? given : new Refused("--format must be jsonl or csv");
}

/**
 * Why `parseArgs` refused the arguments, in this command's words: its own messages (`Unknown
 * option '--bogus'. To specify a positional argument starting with a '-', place it at the end
 * of the command after '--', as in '-- "--bogus"`) explain less than they say.
 */
function parseRefusal(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  // The option as its message quotes it: '--org', '--org <value>', or '-h, --help' for one with a short form.
  const quoted = /'(-[^']*)'/.exec(message)?.[1];
  const named = quoted?.split(", ").at(-1)?.split(" ")[0];
  if (named === undefined) return message;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const meant = meantOption(named.replace(/^-+/, ""));
    return `unknown option ${named}${meant === undefined ? "" : ` (did you mean --${meant}?)`}`;
  }
  if (code !== "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return message;
  if (/does not take an argument/.test(message)) return `${named} takes no value`;
  if (/is ambiguous/.test(message)) return `${named} is followed by an option, not a value (a value that starts with "-" is written ${named}=-VALUE)`;
  return `${named} needs a value`;
}

/**
 * The option a mistyped name likely means: one it begins (`--dry` for `--dry-run`, when only one
 * does), the longest it begins with (`--orgg`), or, for a name of five letters or more, one a few
 * letters off. A short name is a few letters from many options (`--url` from `--org`), so it gets
 * no guess.
 */
function meantOption(given: string): string | undefined {
  const name = given.toLowerCase();
  const names = Object.keys(options);
  const begun = names.filter((option) => option.startsWith(name));
  if (begun.length > 0) return begun.length === 1 ? begun[0] : undefined;
  const within = names.filter((option) => name.startsWith(option)).sort((x, y) => y.length - x.length);
  if (within.length > 0) return within[0];
  return name.length >= 5 ? closestName(name, names) : undefined;
}

/** `human-users import FILE ...` from the command line's arguments (without node and the script). */
export function parseArguments(argv: readonly string[]): ParsedArguments {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    return { kind: "error", message: parseRefusal(error) };
  }
  const { values, positionals, tokens } = parsed;
  if (values.help === true) return { kind: "help" };
  if (values.version === true) return { kind: "version" };
  // The last of two values would win without a word (a second --database-url picks the database);
  // a flag given twice is refused too, as the help says of every option.
  const given = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    if (given.has(token.name)) return { kind: "error", message: `--${token.name} is given twice` };
    given.add(token.name);
  }
  const [verb, file, ...extra] = positionals;
  if (verb !== "import") return { kind: "error", message: verb === undefined ? "a command is required: import" : `unknown command ${JSON.stringify(verb)}` };
  if (file === undefined) return { kind: "error", message: "the file to import is required" };
  if (extra.length > 0) return { kind: "error", message: `unexpected arguments: ${extra.join(" ")}` };
  const org = values.org;
  const target = storeTarget(values["database-url"], values["data-dir"]);
  const format = inputFormat(values.format, file);
  const batchSize = positiveWhole("batch-size", values["batch-size"]);
  const concurrency = positiveWhole("concurrency", values.concurrency);
  const parallelBatches = positiveWhole("parallel-batches", values["parallel-batches"]);
  const interval = intervalSeconds(values["progress-interval"]);
  const reportPath = pathOption("report", values.report);
  const linksPath = pathOption("links", values.links);
  // Checked here, before the database is opened, in the words of the library's own check.
  const originRefusal = values.origin === undefined ? undefined : originProblem(values.origin, "--origin");
  if (target instanceof Refused) return { kind: "error", message: target.message };
  if (format instanceof Refused) return { kind: "error", message: format.message };
  for (const value of [batchSize, concurrency, parallelBatches, interval, reportPath, linksPath]) if (value instanceof Refused) return { kind: "error", message: value.message };
  if (originRefusal !== undefined) return { kind: "error", message: originRefusal };
  if (org === undefined || org === "") return { kind: "error", message: "--org is required" };
  return {
    kind: "import",
    command: {
      file,
      format,
      target,
      org,
      createOrg: values["create-org"] === true,
      reportPath: typeof reportPath === "string" ? reportPath : `${file}.report.jsonl`,
      linksPath: typeof linksPath === "string" ? linksPath : `${file}.links.jsonl`,
      reportExisting: values["report-existing"] === true,
      dryRun: values["dry-run"] === true,
      noMail: values["no-mail"] === true,
      ...(typeof batchSize === "number" ? { batchSize } : {}),
      ...(typeof concurrency === "number" ? { concurrency } : {}),
      ...(typeof parallelBatches === "number" ? { parallelBatches } : {}),
      ...(values.origin === undefined ? {} : { origin: values.origin }),
      progressIntervalMs: (typeof interval === "number" ? interval : 10) * 1000,
      quiet: values.quiet === true,
    },
  };
}
