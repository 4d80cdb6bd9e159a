/**
 * A statement's parameters, numbered as they are added: `add` returns `$n` (with a cast when a
 * type is given) and `list` is what the driver takes, so no placeholder is numbered by hand.
 */
export class Placeholders {
  readonly list: unknown[] = [];

  add(value: unknown, type?: string): string {
    this.list.push(value);
    return type ? `$${this.list.length}::${type}` : `$${this.list.length}`;
  }
}
