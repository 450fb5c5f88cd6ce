import { describe, expect, it } from 'vitest';
import { currentStep, groupSteps, latestNarration, stepCount, taskWords, waitingCards } from './thread';
import type { Conversation } from './api';

describe('groupSteps', () => {
  it('folds consecutive agent steps and keeps messages apart', () => {
    const blocks = groupSteps([
      { kind: 'user', text: 'hi', joined: false },
      { kind: 'narration', text: 'Opening' },
      { kind: 'progress', text: 'Typing' },
      { kind: 'notice', what: 'stopped' },
    ]);
    expect(blocks.map((b) => b.kind)).toEqual(['item', 'steps', 'item']);
    expect(blocks[1].kind === 'steps' && blocks[1].items.length).toBe(2);
  });

  it('puts the steps that led to an answer under the answer, which leads', () => {
    const blocks = groupSteps([
      { kind: 'user', text: 'Add up the table', joined: false },
      { kind: 'narration', text: 'Opening' },
      { kind: 'tool', name: 'execute', title: 'Open Spreadsheet' },
      { kind: 'answer', text: '**The total is $1,284.50**' },
    ]);
    expect(blocks.map((b) => b.kind)).toEqual(['item', 'answer']);
    const answer = blocks[1];
    expect(answer.kind === 'answer' && answer.steps.length).toBe(2);
  });
});

describe('stepCount', () => {
  it('counts the agent’s actions, not its narration or progress lines', () => {
    expect(stepCount([
      { kind: 'narration', text: 'I will open it' },
      { kind: 'tool', name: 'execute', title: 'Open Browser' },
      { kind: 'progress', text: 'Browser is open' },
      { kind: 'tool', name: 'execute', title: 'Type the request' },
      { kind: 'progress', text: 'Typed' },
    ])).toBe(2);
  });
});

describe('taskWords', () => {
  it('is the message that started the task and what was added to it', () => {
    expect(taskWords([
      { kind: 'user', text: 'Weather?', joined: false },
      { kind: 'answer', text: 'Sunny' },
      { kind: 'user', text: 'Delete the old files', joined: false },
      { kind: 'user', text: 'in Downloads', joined: true },
      { kind: 'tool', name: 'execute', title: 'Open Files' },
    ])).toBe('Delete the old files\nin Downloads');
  });
});

describe('latestNarration', () => {
  const items = [
    { kind: 'user' as const, text: 'Look up the weather', joined: false },
    { kind: 'narration' as const, text: 'Opening the browser' },
    { kind: 'tool' as const, name: 'execute', title: null },
    { kind: 'narration' as const, text: 'Reading the forecast' },
    { kind: 'progress' as const, text: 'Scrolling' },
  ];

  it('is the last narration line while the task runs', () => {
    expect(latestNarration(items, true)).toBe('Reading the forecast');
  });

  it('is empty once the task has ended', () => {
    expect(latestNarration(items, false)).toBe('');
  });

  it('never repeats a line of an earlier task', () => {
    expect(latestNarration([...items, { kind: 'user', text: 'And tomorrow?', joined: false }], true)).toBe('');
  });
});

describe('currentStep', () => {
  it('counts the steps of the task under way only, and words the newest', () => {
    expect(currentStep([
      { kind: 'user', text: 'First', joined: false },
      { kind: 'tool', name: 'execute', title: 'Open Files' },
      { kind: 'answer', text: 'Done' },
      { kind: 'user', text: 'Second', joined: false },
      { kind: 'narration', text: 'Looking at the page' },
      { kind: 'tool', name: 'execute', title: 'Open Browser' },
      { kind: 'user', text: 'and Porto', joined: true },
      { kind: 'tool', name: 'execute', title: null },
    ])).toEqual({ number: 2, words: 'Open Browser' });
    expect(currentStep([{ kind: 'user', text: 'Go', joined: false }])).toEqual({ number: 0, words: '' });
  });
});

describe('waitingCards', () => {
  it('offers the questions only while their task runs', () => {
    const running = {
      status: 'running', stopping: false, pendingApproval: null,
      capQuestion: { spentUsd: 1 }, stuck: { asking: { kind: 'repeating' } },
    } as unknown as Conversation;
    expect(waitingCards(running).capQuestion).not.toBeNull();
    expect(waitingCards(running).stuck).not.toBeNull();
    const ended = { ...running, status: 'succeeded' } as Conversation;
    expect(waitingCards(ended)).toEqual({ approval: null, capQuestion: null, stuck: null });
    expect(waitingCards(null)).toEqual({ approval: null, capQuestion: null, stuck: null });
  });
});
