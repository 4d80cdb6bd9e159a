import { decodeListCursor, encodeListCursor } from './list-cursor';

describe('service-account list cursor', () => {
  it('round-trips a position exact to the microsecond', () => {
    const position = { createdAt: '2026-11-24 05:32:58.123456+00', clientId: 'sa_1' };
    expect(decodeListCursor(encodeListCursor(position))).toEqual(position);
  });

  it('refuses a cursor it did not make with a validation problem, never passing it to the database', () => {
    const forged = Buffer.from(JSON.stringify(['yesterday', 'sa_1'])).toString('base64url');
    for (const cursor of ['not-ours', forged, '']) expect(() => decodeListCursor(cursor)).toThrow(expect.objectContaining({ status: 400 }));
  });
});
