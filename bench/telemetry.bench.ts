// What telemetry costs createHumanUser (memory store, verification mail delivered), in the same
// process, the cases alternating batch by batch in 5 rounds; each ratio is against the baseline of
// the same round, median of the rounds. The baseline runs the runner's steps as runCommand did
// before it had a telemetry hook; then createHumanUser without telemetry (the default); a no-op
// Telemetry, which runs every hook and records nothing (the hooks' own cost); openTelemetry(api)
// with no SDK (the API's no-op tracer); and the SDK recording spans that its processor drops.
// Run with `npm run bench -- telemetry`.
import * as api from "@opentelemetry/api";
import { err, ResultAsync, type Result } from "neverthrow";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, NoopSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { openTelemetry } from "../src/adapters/otel/index.js";
import { createHumanUserCommand } from "../src/core/commands/create-human-user.js";
import { continueCommand, prepareCommand } from "../src/core/commands/runner.js";
import { resolvePorts } from "../src/core/resolved-ports.js";
import { createHumanUser, fixedClock, memoryMailer, memoryStore, type ErrorBody, type Ports, type Telemetry } from "../src/index.js";
import { runtime } from "../src/operations/runtime.js";
import { alternatingRounds, alternatingTable } from "./support/alternating.js";

const context = { requester: { userId: "admin", orgId: "acme" } };

function portsWith(telemetry: Telemetry | undefined): Ports {
  const ports: Ports = {
    storage: memoryStore({ organizations: [{ id: "acme", domains: [{ domain: "acme.example", verified: true }] }] }),
    mailer: memoryMailer(),
    clock: fixedClock("2026-01-01T00:00:00Z"),
  };
  return telemetry === undefined ? ports : { ...ports, telemetry };
}

const noopTelemetry: Telemetry = {
  span: (_name, _attributes, work) => work({ setAttributes: () => undefined, fail: () => undefined }),
  count: () => undefined,
};

const sdk = openTelemetry({
  trace: new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] }),
  metrics: new MeterProvider(),
});

let counter = 0;
const body = () => {
  counter += 1;
  return { username: `user-${counter}`, profile: { givenName: "Ann", familyName: "Lee" }, email: { email: `user-${counter}@example.com` } };
};

function create(ports: Ports): () => Promise<void> {
  return async () => {
    if ((await createHumanUser(ports, body(), context)).isErr()) throw new Error("refused");
  };
}

/** runCommand's steps without the operation's telemetry hook, wrapped as an operation: what createHumanUser ran before it. */
function createWithoutHook(ports: Ports): () => Promise<void> {
  const steps = async (): Promise<Result<unknown, ErrorBody>> => {
    const resolved = resolvePorts(ports, runtime);
    if (resolved.isErr()) return err(resolved.error);
    const prepared = await prepareCommand(resolved.value, body(), context, createHumanUserCommand);
    return prepared.isErr() ? err(prepared.error) : continueCommand(resolved.value, runtime, prepared.value);
  };
  return async () => {
    if ((await new ResultAsync(steps())).isErr()) throw new Error("refused");
  };
}

const figures = await alternatingRounds([
  { name: "the runner's steps without the telemetry hook (baseline)", run: createWithoutHook(portsWith(undefined)) },
  { name: "createHumanUser without telemetry (the default)", run: create(portsWith(undefined)) },
  { name: "a no-op Telemetry: every hook runs, nothing recorded", run: create(portsWith(noopTelemetry)) },
  { name: "openTelemetry(api), no SDK registered", run: create(portsWith(openTelemetry(api))) },
  { name: "openTelemetry, SDK providers, spans recorded then dropped", run: create(portsWith(sdk)) },
]);
console.log(alternatingTable(figures));
