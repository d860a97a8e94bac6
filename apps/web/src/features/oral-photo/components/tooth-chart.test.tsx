import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it, vi } from 'vitest';
import { permanentTeeth } from '@dental/contracts';
import { ToothPicker } from './tooth-chart';

/** The picker as a form holds it: its value follows each change. */
function Picker({ initial, onChange }: { initial: number[]; onChange: (teeth: number[]) => void }) {
  const [teeth, setTeeth] = useState(initial);
  return (
    <ToothPicker
      value={teeth}
      onChange={(next) => {
        setTeeth(next);
        onChange(next);
      }}
    />
  );
}

function renderPicker(initial: number[] = []) {
  const onChange = vi.fn<(teeth: number[]) => void>();
  render(
    <MantineProvider>
      <Picker initial={initial} onChange={onChange} />
    </MantineProvider>,
  );
  return { onChange, user: userEvent.setup({ delay: null }) };
}

const tooth = (name: string) => screen.getByRole('button', { name });

describe('ToothPicker', () => {
  it('offers each of the 32 permanent teeth as a toggle named by number and in words', () => {
    renderPicker([16]);
    const group = screen.getByRole('group', { name: 'Teeth shown (optional)' });
    const toggles = within(group).getAllByRole('button');
    expect(toggles).toHaveLength(32);
    expect(toggles.map((toggle) => Number(toggle.textContent))).toEqual(
      expect.arrayContaining([...permanentTeeth]),
    );
    expect(tooth('Tooth 16 (upper right first molar)')).toHaveAttribute('aria-pressed', 'true');
    expect(tooth('Tooth 11 (upper right central incisor)')).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(tooth('Tooth 38 (lower left wisdom tooth)')).toBeInTheDocument();
    expect(tooth('Tooth 43 (lower right canine)')).toBeInTheDocument();
    // The quadrants read in chart order: the patient's right first, from the back tooth.
    const upperRight = screen.getByRole('list', { name: 'Upper right' });
    expect(
      within(upperRight)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['18', '17', '16', '15', '14', '13', '12', '11']);
    expect(screen.getByText('Picked: 16.')).toBeInTheDocument();
  });

  it('toggles teeth by click and answers them sorted', async () => {
    const { onChange, user } = renderPicker([16]);
    await user.click(tooth('Tooth 46 (lower right first molar)'));
    expect(onChange).toHaveBeenLastCalledWith([16, 46]);
    await user.click(tooth('Tooth 11 (upper right central incisor)'));
    expect(onChange).toHaveBeenLastCalledWith([11, 16, 46]);
    expect(tooth('Tooth 46 (lower right first molar)')).toHaveAttribute('aria-pressed', 'true');
    await user.click(tooth('Tooth 16 (upper right first molar)'));
    expect(onChange).toHaveBeenLastCalledWith([11, 46]);
    expect(tooth('Tooth 16 (upper right first molar)')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('Picked: 11, 46.')).toBeInTheDocument();
  });

  it('works by keyboard: Tab reaches the teeth in chart order, Space and Enter toggle', async () => {
    const { onChange, user } = renderPicker();
    expect(screen.getByText('No teeth picked.')).toBeInTheDocument();
    await user.tab();
    expect(tooth('Tooth 18 (upper right wisdom tooth)')).toHaveFocus();
    await user.tab();
    expect(tooth('Tooth 17 (upper right second molar)')).toHaveFocus();
    await user.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith([17]);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith([16, 17]);
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith([17]);
  });
});
