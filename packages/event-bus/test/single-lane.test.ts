import { SingleLane } from '../src';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('SingleLane', () => {
  it('runs tasks one at a time in the order they arrive', async () => {
    const lane = new SingleLane();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([lane.run(task('a')), lane.run(task('b')), lane.run(task('c'))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('hands a failure to its own caller and goes on with the next task', async () => {
    const lane = new SingleLane();
    const failing = lane.run(async () => {
      await tick();
      throw new Error('SMTP refused');
    });
    const next = lane.run(async () => 'sent');
    await expect(failing).rejects.toThrow('SMTP refused');
    await expect(next).resolves.toBe('sent');
  });
});
