import { tailNumberKey } from '../../domain/tail-number';
import type { TailState } from '../../domain/tail.state';
import type { TailProperties } from '../../domain/tail-properties';

// How a tail's state maps to the columns of `<prefix>tails`, both ways.

/** Element types of the tail rows' columns, in the order of {@link tailColumns}. */
export const TAIL_ARRAY_TYPES = ['bigint', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'int', 'text', 'int', 'timestamptz', 'timestamptz'];

/** Tail rows as one array per column. */
export function tailColumns(states: TailState[]): unknown[][] {
  return [
    states.map((r) => r.tailId),
    states.map((r) => r.domain),
    states.map((r) => r.tailNumber),
    states.map((r) => tailNumberKey(r.tailNumber)),
    states.map((r) => r.properties.registrationNumber),
    states.map((r) => r.properties.icaoTypeName),
    states.map((r) => r.properties.vendorTypeName),
    states.map((r) => r.properties.countryCode),
    states.map((r) => r.properties.passengerSeating),
    states.map((r) => r.status),
    states.map((r) => r.version),
    states.map((r) => r.createdAt),
    states.map((r) => r.updatedAt),
  ];
}

export const TAIL_COLUMNS =
  'tail_id::text as tail_id, domain, tail_number, registration_number, icao_type_name, vendor_type_name, country_code, passenger_seating, status, version, created_at, updated_at';

export interface DbTailRow {
  tail_id: string;
  domain: string;
  tail_number: string;
  registration_number: string | null;
  icao_type_name: string | null;
  vendor_type_name: string | null;
  country_code: string | null;
  passenger_seating: number | null;
  status: 'active' | 'inactive';
  version: number;
  created_at: Date;
  updated_at: Date;
}

type PropertyColumns = Pick<DbTailRow, 'registration_number' | 'icao_type_name' | 'vendor_type_name' | 'country_code' | 'passenger_seating'>;

/** The optional tail properties of a stored row, as the domain and the views name them. */
export function propertiesOf(r: PropertyColumns): TailProperties {
  return {
    registrationNumber: r.registration_number,
    icaoTypeName: r.icao_type_name,
    vendorTypeName: r.vendor_type_name,
    countryCode: r.country_code,
    passengerSeating: r.passenger_seating,
  };
}

/** A stored row as the domain's state. Its mappings live in their own table and are not needed to fold. */
export function fromDb(r: DbTailRow): TailState {
  return {
    tailId: Number(r.tail_id),
    domain: r.domain,
    tailNumber: r.tail_number,
    properties: propertiesOf(r),
    status: r.status,
    mappings: [],
    version: r.version,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}
