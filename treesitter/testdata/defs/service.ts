export interface User {
  id: number;
  name?: string;
  greet(other: User): string;
}

export type ID = string | number;

export enum Role { Admin, Guest }

export abstract class Repo<T extends { id: ID }> {
  private items: Map<ID, T> = new Map();
  abstract validate(item: T): boolean;

  @logged
  save(item: T): void {
    this.items.set(item.id, item);
  }
}

namespace Util {
  export function clamp(x: number, lo: number, hi: number): number {
    return Math.min(Math.max(x, lo), hi);
  }
}

declare function external(x: number): void;

export const fetchUser = async (id: ID): Promise<User> => {
  return { id: 1 } as User;
};
