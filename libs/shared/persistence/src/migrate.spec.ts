import { splitStatements } from './migrate';

describe('splitStatements', () => {
  it('splits on statement ends, skipping comments and keeping dollar-quoted bodies whole', () => {
    const sql = `-- a comment
CREATE TABLE a (id int);
CREATE FUNCTION f() RETURNS trigger AS $$
BEGIN
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE INDEX i ON a (id);`;
    const parts = splitStatements(sql);
    expect(parts).toHaveLength(3);
    expect(parts[1]).toContain('RETURN NEW;');
    expect(parts[0]).toBe('CREATE TABLE a (id int);');
  });
});
