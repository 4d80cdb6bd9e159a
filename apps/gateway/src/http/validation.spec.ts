import 'reflect-metadata';
import { ArgumentMetadata, Paramtype, ValidationPipe } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { getMetadataStorage } from 'class-validator';
import { OAuthTokenController } from '../auth/interface/oauth-token.controller';
import { ServiceAccountsController } from '../auth/interface/service-accounts.controller';
import { ErrorsPageController } from '../problems/interface/errors-page.controller';
import { VersionController } from '../system/version.controller';
import { BulkTailsDto } from '../tails/interface/dto/bulk-tails.dto';
import { TailDto } from '../tails/interface/dto/tail.dto';
import { TailsController } from '../tails/interface/tails.controller';
import { WebhookSubscriptionsController } from '../webhooks/interface/webhook-subscriptions.controller';
import { VALIDATION_OPTIONS, validationPipe } from './validation';

const CONTROLLERS = [OAuthTokenController, ServiceAccountsController, ErrorsPageController, VersionController, TailsController, WebhookSubscriptionsController];
const VALIDATED: Partial<Record<number, Paramtype>> = { [RouteParamtypes.BODY]: 'body', [RouteParamtypes.QUERY]: 'query', [RouteParamtypes.PARAM]: 'param' };

/** Every body, query and path argument of the gateway's routes, as the pipe sees it. */
function routeArguments(): { route: string; metadata: ArgumentMetadata }[] {
  const out: { route: string; metadata: ArgumentMetadata }[] = [];
  for (const controller of CONTROLLERS) {
    const proto = controller.prototype as unknown as Record<string, unknown>;
    for (const method of Object.getOwnPropertyNames(proto)) {
      if (method === 'constructor' || typeof proto[method] !== 'function') continue;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { index: number; data?: string }>;
      const types = (Reflect.getMetadata('design:paramtypes', proto, method) ?? []) as unknown[];
      for (const [key, { index, data }] of Object.entries(args)) {
        const type = VALIDATED[Number(key.split(':')[0])];
        if (type) out.push({ route: `${controller.name}.${method}`, metadata: { type, data, metatype: types[index] as ArgumentMetadata['metatype'] } });
      }
    }
  }
  return out;
}

/** Values of every JSON type, strings of many lengths and shapes, objects and arrays (one over the bulk limit). */
const VALUES: unknown[] = [
  'N123AB', '  N1  ', '', ' ', 'x', 'a'.repeat(20), 'a'.repeat(21), 'a'.repeat(50), 'a'.repeat(51), 'a'.repeat(64), 'a'.repeat(101), '✈'.repeat(50),
  'US', 'us', 'XX', 'active', 'inactive', 'client_credentials', 'https://hooks.example.com/x', 'Product.RiskAssessmentExecuted', '42', '10',
  0, 1, 50, 180, 500, 501, 1000, 1001, -1, 1.5, true, false, null, undefined, {}, ['x'],
  [{ tailId: 'efb-1', tailNumber: 'N1', extra: { nested: [1, 'two', null] } }, 'x', null, [3]], Array.from({ length: 1001 }, (_, i) => ({ tailId: `t${i}` })),
];

/** Deterministic objects over the class's validated properties: each present three times in four, an unknown field now and then. */
function candidates(cls: object, count: number): Record<string, unknown>[] {
  const names = [...new Set(getMetadataStorage().getTargetValidationMetadatas(cls as new () => object, '', false, false).map((m) => m.propertyName))];
  let seed = 2024;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 16) % n;
  };
  return Array.from({ length: count }, () => {
    const plain: Record<string, unknown> = {};
    for (const name of names) if (next(4) > 0) plain[name] = VALUES[next(VALUES.length)];
    if (next(15) === 0) plain.unknownField = 'x';
    return plain;
  });
}

/** What a pipe does with a value: the instance it returns (class and entries) or the problem it throws. */
async function outcome(pipe: ValidationPipe, value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
  try {
    const result = await pipe.transform(value, metadata);
    return { accepted: result?.constructor?.name, entries: typeof result === 'object' && result !== null ? Object.entries(result) : result };
  } catch (error) {
    return { rejected: (error as { constructor: { name: string } }).constructor.name, body: JSON.stringify(error) };
  }
}

describe('validationPipe (the gateway global pipe)', () => {
  // Nest's pipe with the same options: what every route had before the fast path.
  const reference = new ValidationPipe(VALIDATION_OPTIONS);

  it('finds the routes it guards', () => {
    const classes = new Set(routeArguments().map((a) => a.metadata.metatype));
    expect(classes.has(TailDto)).toBe(true);
    expect(classes.size).toBeGreaterThanOrEqual(6);
  });

  it.each(routeArguments().map((a) => [a.route, a.metadata.type, a.metadata]))(
    '%s (%s): the same instance or the same problem as Nest’s ValidationPipe, for any input',
    async (_route, _type, metadata) => {
      const meta = metadata as ArgumentMetadata;
      const inputs: unknown[] = [undefined, null, 'text', 7, [], ...(meta.metatype ? candidates(meta.metatype, 600) : [])];
      for (const input of inputs) {
        const copy = typeof input === 'object' && input !== null ? structuredClone(input) : input;
        expect([input, await outcome(validationPipe, input, meta)]).toEqual([input, await outcome(reference, copy, meta)]);
      }
    },
  );

  it('accepts a valid tail without class-validator', async () => {
    const slow = jest.spyOn(ValidationPipe.prototype, 'transform');
    try {
      const body = { tailId: 'efb-1', tailNumber: 'N1', passengerSeating: 180 };
      const dto = await validationPipe.transform(body, { type: 'body', metatype: TailDto });
      expect(dto).toBeInstanceOf(TailDto);
      expect({ ...(dto as object) }).toEqual(body);
      expect(slow).not.toHaveBeenCalled();
      await expect(validationPipe.transform({ ...body, tailNumber: '' }, { type: 'body', metatype: TailDto })).rejects.toThrow();
      expect(slow).toHaveBeenCalledTimes(1);
    } finally {
      slow.mockRestore();
    }
  });

  it('takes a bulk body’s list of tails as parsed, without class-transformer copying it', async () => {
    const slow = jest.spyOn(ValidationPipe.prototype, 'transform');
    try {
      const body = { tails: Array.from({ length: 1000 }, (_, i) => ({ tailId: `efb-${i}`, tailNumber: `N${i}`, extra: {} })) };
      const dto = (await validationPipe.transform(body, { type: 'body', metatype: BulkTailsDto })) as BulkTailsDto;
      expect(dto).toBeInstanceOf(BulkTailsDto);
      expect(dto.tails).toBe(body.tails);
      expect(slow).not.toHaveBeenCalled();
      await expect(validationPipe.transform({ tails: [...body.tails, {}] }, { type: 'body', metatype: BulkTailsDto })).rejects.toThrow();
      await expect(validationPipe.transform({ tails: {} }, { type: 'body', metatype: BulkTailsDto })).rejects.toThrow();
      expect(slow).toHaveBeenCalledTimes(2);
    } finally {
      slow.mockRestore();
    }
  });
});
