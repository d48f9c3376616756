/**
 * One call of `send` for many items: the items given in one tick go together, and those given
 * while a batch is on its way wait for it and go together as the next one. Alone, an item goes at
 * once; under load, many share one call (as a database groups commits). Each caller's promise
 * settles with its batch's call. At most one call of `send` runs at a time.
 */
export function coalesced<T>(send: (items: readonly T[]) => Promise<void>): (item: T) => Promise<void> {
  let previous: Promise<unknown> = Promise.resolve();
  let gathering: { readonly items: T[]; readonly sent: Promise<void> } | undefined;
  return (item) => {
    if (gathering !== undefined) {
      gathering.items.push(item);
      return gathering.sent;
    }
    const items = [item];
    const sent = previous.then(() => {
      // Batches start one after another, so the one gathering now is this one: later items start the next.
      gathering = undefined;
      return send(items);
    });
    gathering = { items, sent };
    previous = sent.catch(() => undefined);
    return sent;
  };
}
