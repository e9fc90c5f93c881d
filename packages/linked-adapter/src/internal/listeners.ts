/** A small set of listeners, each called in turn; one that throws does not stop the others. */
export class Listeners<T> {
  readonly #listeners = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    const own = (value: T): void => listener(value);
    this.#listeners.add(own);
    return () => {
      this.#listeners.delete(own);
    };
  }

  emit(value: T): void {
    for (const listener of this.#listeners) {
      try {
        listener(value);
      } catch {
        // A listener's fault is its own: the host's supervision goes on.
      }
    }
  }
}
