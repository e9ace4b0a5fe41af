// Geo-IP lookup used to annotate sign-in attempts. The development implementation knows nothing
// and answers null; a real one (a MaxMind database, a vendor API) implements the same interface.
export interface GeoLocation {
  cityName: string | null;
  countryName: string | null;
  continentName: string | null;
}

export interface GeoIpLookup {
  /** Never throws for an unknown or private address: answers null. */
  lookup(ipAddress: string): Promise<GeoLocation | null>;
}

export const unknownGeoIp: GeoIpLookup = {
  lookup: () => Promise.resolve(null),
};

/** A lookup from a fixed table; for tests and demos. */
export function tableGeoIp(table: Readonly<Record<string, GeoLocation>>): GeoIpLookup {
  return { lookup: (ip) => Promise.resolve(table[ip] ?? null) };
}
