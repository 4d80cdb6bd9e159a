/**
 * The descriptive properties of a tail besides its tail number. Absent values are `null`, so
 * events and state always carry every key.
 */
export interface TailProperties {
  registrationNumber: string | null;
  icaoTypeName: string | null;
  vendorTypeName: string | null;
  countryCode: string | null;
  passengerSeating: number | null;
}

/** The same properties as submitted: any of them may be missing or `null`. */
export type TailPropertiesInput = { [K in keyof TailProperties]?: TailProperties[K] | null | undefined };

export const TAIL_PROPERTY_KEYS: readonly (keyof TailProperties)[] = [
  'registrationNumber',
  'icaoTypeName',
  'vendorTypeName',
  'countryCode',
  'passengerSeating',
];

/** Every property key present, `undefined` turned into `null`. */
export function normalizeTailProperties(input: TailPropertiesInput | undefined): TailProperties {
  return {
    registrationNumber: input?.registrationNumber ?? null,
    icaoTypeName: input?.icaoTypeName ?? null,
    vendorTypeName: input?.vendorTypeName ?? null,
    countryCode: input?.countryCode ?? null,
    passengerSeating: input?.passengerSeating ?? null,
  };
}
