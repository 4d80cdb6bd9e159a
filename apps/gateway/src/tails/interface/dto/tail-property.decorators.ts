import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TAIL_PROPERTIES, type TailPropertyDefinition } from '@tailsync/contracts';
import { IsInt, IsISO31661Alpha2, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

// The optional tail properties of a DTO or a view, decorated from the table of tail properties
// (libs/contracts), so a new row is validated and documented with no class to edit.

const thousands = (n: number) => n.toLocaleString('en-US');

/** A property's decorators in a request body, in the order a class body would list them (top first). */
function inputDecorators({ label, value, example }: TailPropertyDefinition): PropertyDecorator[] {
  const shown = example === undefined ? {} : { example };
  switch (value.kind) {
    case 'text':
      return [
        ApiPropertyOptional({ type: String, maxLength: value.maxLength, nullable: true, ...shown }),
        IsOptional(),
        IsString({ message: `${label} must be a string.` }),
        MaxLength(value.maxLength, { message: `${label} must be at most ${value.maxLength} characters.` }),
      ];
    case 'country-code':
      return [
        ApiPropertyOptional({ type: String, description: 'ISO 3166-1 alpha-2 (an assigned code, either case)', pattern: '^[A-Za-z]{2}$', ...shown, nullable: true }),
        IsOptional(),
        IsISO31661Alpha2({ message: `${label} must be an ISO 3166-1 alpha-2 code.` }),
      ];
    case 'integer': {
      const range = `${label} must be from ${thousands(value.minimum)} to ${thousands(value.maximum)}.`;
      return [
        ApiPropertyOptional({ type: 'integer', minimum: value.minimum, maximum: value.maximum, ...shown, nullable: true }),
        IsOptional(),
        IsInt({ message: `${label} must be an integer.` }),
        Min(value.minimum, { message: range }),
        Max(value.maximum, { message: range }),
      ];
    }
  }
}

/** A property's decorators in a response view: always present, `null` when not given. */
function viewDecorators({ value }: TailPropertyDefinition): PropertyDecorator[] {
  return [ApiProperty({ nullable: true, type: value.kind === 'integer' ? Number : String })];
}

/**
 * Applies each property's decorators as TypeScript would for members declared at the end of the
 * class body: properties in the table's order, each one's decorators bottom first. The order is
 * what class-validator runs the rules in and Swagger lists the schema's properties in, so the
 * problem responses and the OpenAPI document stay what they were when the members were written out.
 */
function declare(target: abstract new () => object, decoratorsOf: (property: TailPropertyDefinition) => PropertyDecorator[]): void {
  for (const property of TAIL_PROPERTIES as readonly TailPropertyDefinition[]) {
    for (const decorate of decoratorsOf(property).reverse()) decorate(target.prototype as object, property.name);
  }
}

/** The tail properties of a request body class (validated, optional, `null` allowed). */
export function declareTailPropertyInputs(target: abstract new () => object): void {
  declare(target, inputDecorators);
}

/** The tail properties of a view class. */
export function declareTailPropertyViews(target: abstract new () => object): void {
  declare(target, viewDecorators);
}
