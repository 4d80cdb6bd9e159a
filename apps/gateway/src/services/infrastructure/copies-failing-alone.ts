import { type ChannelOptions, connectivityState, experimental, status } from '@grpc/grpc-js';

/**
 * A grpc-js balancing policy: round robin (its child policy) over the service's copies, less the
 * copies whose calls fail while another copy's succeed. grpc-js's own outlier detection sets a
 * copy aside by its failures alone, so when every copy fails alike (the gateway's own network is
 * cut) it sets one aside anyway, and after the heal the calls can reach only the other. Here a
 * copy is set aside only when it fails alone, and every copy set aside comes back at once when no
 * other copy is ready to take a call (the last reachable copy beats none).
 */
export const COPIES_FAILING_ALONE = 'tailsync_copies_failing_alone';

/** How the policy is configured in a service config's `loadBalancingConfig`. */
export interface CopiesFailingAloneConfig {
  /** How often the copies' calls are counted and compared (ms). */
  check_interval_ms: number;
  /** How long a copy is set aside the first time (ms); each time again adds as much, up to `max_aside_ms`. */
  base_aside_ms: number;
  max_aside_ms: number;
  child_policy: object[];
}

const {
  BaseSubchannelWrapper, ChildLoadBalancerHandler, createChildChannelControlHelper, PickResultType, registerLoadBalancerType, selectLbConfigFromList,
  subchannelAddressToString,
} = experimental;
type Helper = experimental.ChannelControlHelper;
type Picker = experimental.Picker;
type Endpoint = experimental.Endpoint;

/** One copy (address) of the service: its calls since the last check, and whether it is set aside. */
class Copy {
  calls = 0;
  failures = 0;
  /** When its time aside ends (epoch ms), or null while it takes calls. */
  asideUntil: number | null = null;
  /** How many of its recent checks set it aside: its next time aside is this many times the base. */
  strikes = 0;
  readonly subchannels = new Set<CopySubchannel>();

  failed(): boolean {
    return this.calls >= 2 && this.failures * 2 > this.calls;
  }

  served(): boolean {
    return this.calls > 0 && !this.failed();
  }

  setAside(until: number): void {
    this.asideUntil = until;
    this.subchannels.forEach((s) => s.take(false));
  }

  bringBack(): void {
    this.asideUntil = null;
    this.subchannels.forEach((s) => s.take(true));
  }
}

/** A copy's subchannel: reported unhealthy to round robin while the copy is set aside. */
class CopySubchannel extends BaseSubchannelWrapper {
  private refs = 0;

  constructor(
    child: experimental.SubchannelInterface,
    readonly copy: Copy,
  ) {
    super(child);
  }

  override ref(): void {
    super.ref();
    this.refs += 1;
  }

  // A subchannel round robin no longer holds is forgotten, so a copy's set grows no longer.
  override unref(): void {
    super.unref();
    this.refs -= 1;
    if (this.refs <= 0) this.copy.subchannels.delete(this);
  }

  take(calls: boolean): void {
    this.setHealthy(calls);
  }
}

class CopiesFailingAloneConfigType implements experimental.TypedLoadBalancingConfig {
  constructor(
    readonly settings: CopiesFailingAloneConfig,
    readonly child: experimental.TypedLoadBalancingConfig,
  ) {}

  static createFromJson(json: CopiesFailingAloneConfig): CopiesFailingAloneConfigType {
    const child = selectLbConfigFromList((json.child_policy ?? []) as never);
    if (!child) throw new Error(`${COPIES_FAILING_ALONE}: no child_policy that grpc-js knows`);
    for (const key of ['check_interval_ms', 'base_aside_ms', 'max_aside_ms'] as const) {
      if (!(json[key] > 0)) throw new Error(`${COPIES_FAILING_ALONE}: ${key} must be a positive number of ms`);
    }
    return new CopiesFailingAloneConfigType(json, child);
  }

  getLoadBalancerName(): string {
    return COPIES_FAILING_ALONE;
  }

  toJsonObject(): object {
    return { [COPIES_FAILING_ALONE]: { ...this.settings, child_policy: [this.child.toJsonObject()] } };
  }
}

/** Counts each call's outcome against the copy it was sent to. */
class CountingPicker implements Picker {
  constructor(private readonly child: Picker) {}

  pick(args: experimental.PickArgs): experimental.PickResult {
    const picked = this.child.pick(args);
    if (picked.pickResultType !== PickResultType.COMPLETE || !(picked.subchannel instanceof CopySubchannel)) return picked;
    const { copy } = picked.subchannel;
    return {
      ...picked,
      onCallEnded: (code, details, metadata) => {
        copy.calls += 1;
        if (code !== status.OK) copy.failures += 1;
        picked.onCallEnded?.(code, details, metadata);
      },
    };
  }
}

class CopiesFailingAloneBalancer implements experimental.LoadBalancer {
  private readonly copies = new Map<string, Copy>();
  private readonly child: experimental.ChildLoadBalancerHandler;
  private settings: CopiesFailingAloneConfig | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(helper: Helper) {
    this.child = new ChildLoadBalancerHandler(createChildChannelControlHelper(helper, {
      createSubchannel: (address, args) => {
        const copy = this.copyAt(subchannelAddressToString(address));
        const subchannel = new CopySubchannel(helper.createSubchannel(address, args), copy);
        if (copy.asideUntil !== null) subchannel.take(false);
        copy.subchannels.add(subchannel);
        return subchannel;
      },
      updateState: (state, picker, errorMessage) => {
        // No copy that takes calls is ready: the copies set aside take them again. Bringing them
        // back makes round robin report its state again, so this (older) state is not passed on.
        if (state !== connectivityState.READY && this.bringBackAll()) return;
        helper.updateState(state, state === connectivityState.READY ? new CountingPicker(picker) : picker, errorMessage);
      },
    }));
  }

  updateAddressList(endpoints: experimental.StatusOr<Endpoint[]>, config: experimental.TypedLoadBalancingConfig, options: ChannelOptions, note: string): boolean {
    if (!(config instanceof CopiesFailingAloneConfigType)) return false;
    this.settings = config.settings;
    if (endpoints.ok) {
      const now = new Set(endpoints.value.flatMap((e) => e.addresses.map(subchannelAddressToString)));
      for (const address of this.copies.keys()) if (!now.has(address)) this.copies.delete(address);
    }
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.check(), config.settings.check_interval_ms);
      this.timer.unref();
    }
    return this.child.updateAddressList(endpoints, config.child, options, note);
  }

  exitIdle(): void {
    this.child.exitIdle();
  }

  resetBackoff(): void {
    this.child.resetBackoff();
  }

  destroy(): void {
    clearInterval(this.timer);
    this.child.destroy();
  }

  getTypeName(): string {
    return COPIES_FAILING_ALONE;
  }

  private copyAt(address: string): Copy {
    let copy = this.copies.get(address);
    if (!copy) this.copies.set(address, (copy = new Copy()));
    return copy;
  }

  /** Sets aside the copies that failed while another copy served; brings back those whose time is up. */
  private check(): void {
    const settings = this.settings!;
    const now = Date.now();
    const copies = [...this.copies.values()];
    const failing = copies.filter((c) => c.asideUntil === null && c.failed());
    const othersServed = copies.some((c) => c.asideUntil === null && c.served());
    for (const copy of copies) {
      if (othersServed && failing.includes(copy)) {
        copy.strikes += 1;
        copy.setAside(now + Math.min(settings.base_aside_ms * copy.strikes, settings.max_aside_ms));
      } else if (copy.asideUntil !== null && copy.asideUntil <= now) {
        copy.bringBack();
      } else if (copy.asideUntil === null && copy.strikes > 0 && !copy.failed()) {
        copy.strikes -= 1;
      }
      copy.calls = 0;
      copy.failures = 0;
    }
  }

  /** Brings every copy set aside back; says whether there was one. */
  private bringBackAll(): boolean {
    const aside = [...this.copies.values()].filter((c) => c.asideUntil !== null);
    aside.forEach((c) => c.bringBack());
    return aside.length > 0;
  }
}

registerLoadBalancerType(COPIES_FAILING_ALONE, CopiesFailingAloneBalancer, CopiesFailingAloneConfigType);
