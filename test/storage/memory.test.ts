import { memoryStore } from "../../src/adapters/memory/store.js";
import { describeStorageContract } from "../../src/testing/index.js";

describeStorageContract("memory", (seed) => {
  const store = memoryStore(seed);
  return { storage: store, snapshot: () => store.snapshot() };
});
