// A Next.js App Router route handler serving every route of the library under /api/human-users:
// the Fetch handler is the route handler, so each HTTP method exports it as is.
// Run: `npx next build examples/nextjs && npx next start examples/nextjs`.
import { createFetchHandler } from "../../../../../../src/http/index.js";
import { demoPorts, requesterFor } from "../../../../../frameworks/demo.js";

const handler = createFetchHandler(demoPorts(), {
  authenticate: (request) => requesterFor(request.headers.get("authorization")),
  // The folder this file sits in: the library sees the whole path, prefix included.
  basePath: "/api/human-users",
});

export const GET = handler;
export const POST = handler;
// The library answers a method a path is not served with (405, code 12, with Allow); a method not
// exported here Next.js would answer itself, with an empty body.
export const PUT = handler;
export const PATCH = handler;
export const DELETE = handler;
