/** Where messages about fields are shown, by JSON Pointer (a 400's `details[].path`, the main field of a 422). */
import { pointerLabel } from '../shared/problems.js';

interface Slot {
  readonly input: HTMLElement;
  readonly message: HTMLElement;
  readonly label: string;
}

export class FieldMarks {
  private readonly slots = new Map<string, Slot[]>();

  register(pointer: string, input: HTMLElement, message: HTMLElement, label: string): void {
    this.slots.set(pointer, [...(this.slots.get(pointer) ?? []).filter((slot) => slot.input.isConnected), { input, message, label }]);
  }

  /** The label of the field at `pointer` (or the nearest around it), as the form shows it. */
  labelAt(pointer: string): string {
    return this.slotAt(pointer)?.label ?? pointerLabel(pointer);
  }

  private slotAt(pointer: string): Slot | undefined {
    for (let at = pointer; ; at = at.slice(0, at.lastIndexOf('/'))) {
      const slot = (this.slots.get(at) ?? []).filter((entry) => entry.input.isConnected).pop();
      if (slot) return slot;
      if (at === '') return undefined;
    }
  }

  clear(): void {
    for (const slots of this.slots.values()) {
      for (const { input, message } of slots) {
        input.removeAttribute('aria-invalid');
        message.textContent = '';
        message.hidden = true;
      }
    }
  }

  /** Marks the field at `pointer`, or the nearest field around it; returns its input. */
  mark(pointer: string, text: string): HTMLElement | undefined {
    const slot = this.slotAt(pointer);
    if (!slot) return undefined;
    slot.input.setAttribute('aria-invalid', 'true');
    slot.message.textContent = slot.message.textContent ? `${slot.message.textContent} ${text}` : text;
    slot.message.hidden = false;
    return slot.input;
  }
}

