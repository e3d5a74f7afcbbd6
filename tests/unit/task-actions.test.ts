/**
 * The Midjourney action readers (docs/tasks.md#routes): Plus API custom ids, simple-change
 * content and the priced model names, each as the reference reads them.
 */
import { describe, expect, it } from 'vitest';
import { actionOfCustomId, modelOfAction, parseSimpleChange } from '../../src/server/relay/tasks/midjourney/actions';

describe('Midjourney custom ids', () => {
  it.each([
    ['MJ::JOB::upsample::2::3dbbd469', { action: 'UPSCALE', index: 2 }],
    ['MJ::JOB::variation::4::3dbbd469', { action: 'VARIATION', index: 4 }],
    ['MJ::JOB::low_variation::1::3dbbd469::SOLO', { action: 'LOW_VARIATION', index: 1 }],
    ['MJ::JOB::high_variation::1::3dbbd469::SOLO', { action: 'HIGH_VARIATION', index: 1 }],
    ['MJ::JOB::pan_left::1::3dbbd469::SOLO', { action: 'PAN', index: 1 }],
    ['MJ::JOB::reroll::0::3dbbd469::SOLO', { action: 'REROLL', index: 1 }],
    ['MJ::Outpaint::50::1::3dbbd469::SOLO', { action: 'ZOOM', index: 1 }],
    ['MJ::CustomZoom::3dbbd469', { action: 'CUSTOM_ZOOM', index: 1 }],
    ['MJ::Inpaint::1::3dbbd469::SOLO', { action: 'INPAINT', index: 1 }],
  ])('%s', (customId, expected) => {
    expect(actionOfCustomId(customId)).toEqual({ ok: true, value: expected });
  });

  it('refuses what it cannot read, in the reference words', () => {
    expect(actionOfCustomId('MJ::JOB::upsample::x::h')).toEqual({ ok: false, description: 'index_parse_failed' });
    expect(actionOfCustomId('MJ::JOB::::1')).toEqual({ ok: false, description: 'unknown_action' });
    expect(actionOfCustomId('nothing')).toEqual({ ok: false, description: 'unknown_action' });
    expect(actionOfCustomId('MJ::JOB::dance::1::h')).toEqual({ ok: false, description: 'unknown_action:MJ::JOB::dance::1::h' });
  });
});

describe('simple-change content', () => {
  it('reads U1–U4, V1–V4 and R', () => {
    expect(parseSimpleChange('1320098173412546 U2')).toEqual({ taskId: '1320098173412546', action: 'UPSCALE', index: 2 });
    expect(parseSimpleChange('1320098173412546 v4')).toEqual({ taskId: '1320098173412546', action: 'VARIATION', index: 4 });
    expect(parseSimpleChange('1320098173412546 R')).toEqual({ taskId: '1320098173412546', action: 'REROLL', index: 0 });
  });

  it.each(['1320098173412546 U5', '1320098173412546 U0', '1320098173412546 X1', '1320098173412546', '1 U1 extra', ' U1', '1320098173412546 U'])('refuses %j', (content) => {
    expect(parseSimpleChange(content)).toBeUndefined();
  });
});

describe('priced model names', () => {
  it('is mj_<action>, and swap_face for the face swap', () => {
    expect(modelOfAction('IMAGINE')).toBe('mj_imagine');
    expect(modelOfAction('HIGH_VARIATION')).toBe('mj_high_variation');
    expect(modelOfAction('SWAP_FACE')).toBe('swap_face');
  });
});
