// Refusals only a Node front end meets: requests node:http lets through that name no URL (a Host
// with a space, a target that is not a path). They are the library's REST error JSON; ids starting
// `NODE-` say the Node front end refused.
import { problem, quoted, type HttpProblem } from "../http/wire-error.js";

export const nodeProblems = {
  noHost: (): HttpProblem => problem(400, 3, "NODE-h0st", "request has no Host header"),
  manyHosts: (): HttpProblem => problem(400, 3, "NODE-h0st", "request has more than one Host header"),
  badHost: (host: string): HttpProblem => problem(400, 3, "NODE-h0st", `Host header ${quoted(host)} is not a valid host`),
  badTarget: (target: string): HttpProblem => problem(400, 3, "NODE-t4rg", `request target ${quoted(target)} is neither a path nor an http URL`),
};
