/** The rules a new password must meet; each left out keeps its default (`defaultPasswordPolicy`: 8 characters, every kind of character required). */
export interface PasswordComplexityPolicy {
  readonly minLength?: number;
  readonly hasLowercase?: boolean;
  readonly hasUppercase?: boolean;
  readonly hasNumber?: boolean;
  readonly hasSymbol?: boolean;
}

/** ZITADEL's lockout policy. */
export interface LockoutPolicy {
  /** Wrong passwords in a row after which the user is locked; 0 or absent: never locked. */
  readonly maxPasswordAttempts?: number;
}

/** An organization's policies. */
export interface OrganizationPolicy {
  readonly passwordComplexity?: PasswordComplexityPolicy;
  readonly lockout?: LockoutPolicy;
  /** When true, usernames are unique within this organization only (ZITADEL's name). */
  readonly userLoginMustBeDomain?: boolean;
}

/** A domain of an organization; a verified one reserves usernames ending in it. */
export interface OrganizationDomain {
  readonly domain: string;
  readonly verified: boolean;
  /** The domain of a user's preferred login name (`userLoginMustBeDomain`); default: the first verified one. */
  readonly primary?: boolean;
}

/** An organization users belong to. */
export interface Organization {
  readonly id: string;
  readonly domains: readonly OrganizationDomain[];
  readonly policy?: OrganizationPolicy;
}

/** An identity provider users may be linked to. */
export interface IdentityProvider {
  readonly id: string;
  /** The owning organization; absent for a provider configured instance-wide. */
  readonly orgId?: string;
}

/**
 * Organizations, their verified domains and identity providers: read-only to the library. A host
 * that keeps organizations in its own tables implements this over them and passes it as
 * `ports.directory`. Methods reject on failure (`StorageUnavailableError` when unreachable).
 */
export interface Directory {
  /** The organization with this id, or `undefined`. */
  findOrganization(id: string): Promise<Organization | undefined>;
  /** The organization that has verified this domain (compared ignoring case). */
  findOrganizationByDomain(domain: string): Promise<Organization | undefined>;
  /** The identity provider with this id, or `undefined`. */
  findIdentityProvider(id: string): Promise<IdentityProvider | undefined>;
}
