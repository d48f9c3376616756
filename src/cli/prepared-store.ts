import { memoryStore } from "../adapters/memory/store.js";
import type { Directory, Organization } from "../ports/directory.js";
import type { Storage } from "../ports/storage.js";
import type { ImportCommand } from "./import-command.js";
import { inspectStore, openStore, SetupError, type OpenedStore } from "./open-storage.js";

/** The store an import runs on. */
export interface PreparedStore {
  readonly storage: Storage;
  /** Takes the place of the store's directory: in a dry run, it answers the organization `--create-org` would make. */
  readonly directory?: Directory;
  /** What a dry run took as given where the database could not tell it, in one line for the summary. */
  readonly assumption?: string;
  close(): Promise<void>;
}

type StoreChoice = Pick<ImportCommand, "target" | "org" | "createOrg">;

/** The organization `--create-org` makes: no domains, the default policy. */
function newOrganization(id: string): Organization {
  return { id, domains: [] };
}

function noOrganization(org: string, description: string): SetupError {
  return new SetupError(`the organization ${JSON.stringify(org)} does not exist in ${description} (--create-org creates it)`);
}

/** The store's directory, with `organization` answered as if it were stored. */
function withOrganization(directory: Directory, organization: Organization): Directory {
  return {
    findOrganization: (id) => (id === organization.id ? Promise.resolve(organization) : directory.findOrganization(id)),
    findOrganizationByDomain: (domain) => directory.findOrganizationByDomain(domain),
    findIdentityProvider: (id) => directory.findIdentityProvider(id),
  };
}

/** Closes `opened` when `prepare` fails, so a refused import leaves no connection behind. */
async function closingOnFailure(opened: OpenedStore, prepare: () => Promise<PreparedStore>): Promise<PreparedStore> {
  try {
    return await prepare();
  } catch (error) {
    await opened.close().catch(() => undefined);
    throw error;
  }
}

/** The database, migrated, with the organization (made when `--create-org` allows). */
export async function prepareStore(choice: StoreChoice): Promise<PreparedStore> {
  const opened = await openStore(choice.target);
  return closingOnFailure(opened, async () => {
    if ((await opened.store.directory.findOrganization(choice.org)) === undefined) {
      if (!choice.createOrg) throw noOrganization(choice.org, opened.description);
      await opened.store.upsertOrganization(newOrganization(choice.org));
    }
    return { storage: opened.store, close: opened.close };
  });
}

/**
 * The store a dry run reads, having written nothing. A database without the tables is checked as
 * an empty one (the real run creates them); an organization `--create-org` would make is answered
 * as it would be made, while stored users of other organizations still count (usernames are
 * instance-wide).
 */
export async function prepareDryRunStore(choice: StoreChoice): Promise<PreparedStore> {
  const found = await inspectStore(choice.target);
  if ("noTables" in found) {
    if (!choice.createOrg) throw noOrganization(choice.org, found.description);
    return {
      storage: memoryStore({ organizations: [newOrganization(choice.org)] }),
      assumption: `${found.description} has no human-users tables yet: checked as an empty database, with no stored user to compare (the real run creates the tables)`,
      close: () => Promise.resolve(),
    };
  }
  const { opened } = found;
  return closingOnFailure(opened, async () => {
    if ((await opened.store.directory.findOrganization(choice.org)) !== undefined) return { storage: opened.store, close: opened.close };
    if (!choice.createOrg) throw noOrganization(choice.org, opened.description);
    return {
      storage: opened.store,
      directory: withOrganization(opened.store.directory, newOrganization(choice.org)),
      assumption: `the organization ${JSON.stringify(choice.org)} does not exist yet: checked as --create-org creates it, with no domains and the default policy (the real run creates it)`,
      close: opened.close,
    };
  });
}
