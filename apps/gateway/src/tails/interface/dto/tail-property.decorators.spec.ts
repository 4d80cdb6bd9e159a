import 'reflect-metadata';
import { checkTail } from '../bulk-validation';

// The messages the decorators made from the table of tail properties give, exactly as the
// hand-written ones did (the contract's wording; the e2e suite checks the problem around them).

const tail = (properties: Record<string, unknown>) => ({ tailId: 'efb-1', tailNumber: 'N1', ...properties });

describe('the tail properties of TailDto, decorated from TAIL_PROPERTIES', () => {
  it.each([
    [{ registrationNumber: 'R'.repeat(51) }, { registrationNumber: ['Registration number must be at most 50 characters.'] }],
    [{ registrationNumber: 1 }, { registrationNumber: ['Registration number must be at most 50 characters.', 'Registration number must be a string.'] }],
    [{ icaoTypeName: 'I'.repeat(101) }, { icaoTypeName: ['ICAO type name must be at most 100 characters.'] }],
    [{ vendorTypeName: true }, { vendorTypeName: ['Vendor type name must be at most 100 characters.', 'Vendor type name must be a string.'] }],
    [{ countryCode: 'XX' }, { countryCode: ['Country code must be an ISO 3166-1 alpha-2 code.'] }],
    [{ countryCode: 1 }, { countryCode: ['Country code must be an ISO 3166-1 alpha-2 code.'] }],
    [{ passengerSeating: -1 }, { passengerSeating: ['Passenger seating must be from 0 to 1,000.'] }],
    [{ passengerSeating: 1.5 }, { passengerSeating: ['Passenger seating must be an integer.'] }],
    [{ passengerSeating: '12' }, { passengerSeating: ['Passenger seating must be from 0 to 1,000.', 'Passenger seating must be an integer.'] }],
    [{ countryCode: 'XX', passengerSeating: 1001 }, { countryCode: ['Country code must be an ISO 3166-1 alpha-2 code.'], passengerSeating: ['Passenger seating must be from 0 to 1,000.'] }],
  ])('refuses %j with the contract\'s messages', (properties, fieldErrors) => {
    expect(checkTail(tail(properties))).toEqual({ ok: false, fieldErrors, generalErrors: [] });
  });

  it.each([
    [{}],
    [{ registrationNumber: null, icaoTypeName: null, vendorTypeName: null, countryCode: null, passengerSeating: null }],
    [{ registrationNumber: 'R'.repeat(50), icaoTypeName: 'B738', vendorTypeName: 'V'.repeat(100), countryCode: 'us', passengerSeating: 1000 }],
    [{ passengerSeating: 0 }],
  ])('accepts %j as it is', (properties) => {
    expect(checkTail(tail(properties))).toEqual({ ok: true, tail: tail(properties) });
  });
});
