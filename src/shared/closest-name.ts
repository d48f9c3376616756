// The known name a given one most likely misspells, to say "did you mean ...?" where a name is
// not known (a setting, a field of an import line).

/** Edits (insertions, deletions, substitutions) from `a` to `b`, ignoring case. */
function editDistance(a: string, b: string): number {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const substitution = (previous[column - 1] ?? 0) + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}

/** The known name `name` most likely misspells (snake_case, other case, a few letters off), if any. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const camel = name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 4)) + 1;
  for (const candidate of known) {
    // A name cut short (`timeout` for `timeoutSeconds`) is as likely as one a letter off.
    const cutShort = camel.length >= 4 && candidate.toLowerCase().startsWith(camel.toLowerCase());
    const distance = cutShort ? 1 : Math.min(editDistance(name, candidate), editDistance(camel, candidate));
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}
