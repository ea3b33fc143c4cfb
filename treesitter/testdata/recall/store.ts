// Parameter properties, construct signatures and module-level
// destructuring, as RxJS and Angular code is written.
import { provider } from './provider';

export const { setTimer, clearTimer } = provider;

export interface StoreCtor {
  new (name: string): Store;
}

export class Store {
  private cache = new Map<string, number>();

  constructor(private readonly backend: Backend, public name: string, retries: number) {}

  get(key: string): number | undefined;
  get(key: string, fallback: number): number;
  get(key: string, fallback?: number): number | undefined {
    return this.cache.get(key) ?? fallback;
  }
}

export type Listener = (store: Store) => void;
