// The username claim key and the username's domain, both computed on every create and import: full
// case folding (NFKC_Casefold) and IDNA-like domain reading against the plain toLowerCase they
// replaced (each baseline measured in the same run), on typical ASCII usernames and on names beyond
// ASCII. Run with `npm run bench -- username-key`.
import { Bench } from "tinybench";
import { usernameClaimKey, usernameDomain } from "../src/core/rules/username.js";

const ascii = ["ann.lee@acme.example", "Bob_Miller", "c.jones+news@Example.COM", "dmitri1987", "EVE", "frank.o'brien@globex.test", "grace-hopper", "Heinz.Schmidt@firma.de"];
const beyondAscii = ["José.García@acme.example", "Jürgen.Straße", "山田太郎", "ΌΣΟΣ", "Zoë Ørsted", "Анна.Иванова", "ＦＵＬＬ＠ｗｉｄｔｈ", "ﬁx-ǅemal"];

let sink = 0;
function over(names: readonly string[], key: (name: string) => string): () => void {
  let index = 0;
  return () => {
    sink += key(names[index++ % names.length] ?? "").length;
  };
}

const lowerCase = (name: string): string => name.toLowerCase();
// The domain lookup as it was before: after the last "@", lower-cased.
const lowerCaseDomain = (name: string): string => {
  const at = name.lastIndexOf("@");
  return at > 0 && at < name.length - 1 ? name.slice(at + 1).toLowerCase() : "";
};
const canonicalDomain = (name: string): string => usernameDomain(name)?.canonical ?? "";
const bench = new Bench({ time: 1500, warmup: true });
bench
  .add("toLowerCase (the old key), ASCII names", over(ascii, lowerCase))
  .add("usernameClaimKey, ASCII names", over(ascii, usernameClaimKey))
  .add("toLowerCase (the old key), names beyond ASCII", over(beyondAscii, lowerCase))
  .add("usernameClaimKey, names beyond ASCII", over(beyondAscii, usernameClaimKey))
  .add("lower-cased domain (the old lookup), ASCII names", over(ascii, lowerCaseDomain))
  .add("usernameDomain, ASCII names", over(ascii, canonicalDomain))
  .add("lower-cased domain (the old lookup), names beyond ASCII", over(beyondAscii, lowerCaseDomain))
  .add("usernameDomain, names beyond ASCII", over(beyondAscii, canonicalDomain));
await bench.run();

const nsPerOp = bench.tasks.map((task) => {
  const result = task.result;
  const hz = result && "throughput" in result ? result.throughput.mean : Number.NaN;
  return { name: task.name, ns: 1e9 / hz };
});
console.log("| case | ns/op | vs the old way on the same names |");
console.log("|---|---:|---:|");
nsPerOp.forEach((row, index) => {
  const baseline = nsPerOp[index - (index % 2)]?.ns ?? Number.NaN;
  console.log(`| ${row.name} | ${row.ns.toFixed(0)} | ${(row.ns / baseline).toFixed(2)}x |`);
});
if (sink === 0) console.log("(nothing computed)");
