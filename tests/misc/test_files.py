import os, pytest
from ragauge.files import write_text_atomically, write_files_atomically
from ragauge.errors import OutputError
def test_basic(tmp_path):
    p = tmp_path/"a.json"; p.write_text("old")
    with pytest.raises(OutputError, match="a.json"):
        write_text_atomically(p, "new \ud800")
    assert p.read_text()=="old"
    write_files_atomically({p:"x", tmp_path/"b.md":"y"})
    assert p.read_text()=="x" and (tmp_path/"b.md").read_text()=="y"
    assert sorted(os.listdir(tmp_path))==["a.json","b.md"]


def test_new_and_replaced_files_keep_readable_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        p = tmp_path / "new.json"
        write_text_atomically(p, "x")
        assert p.stat().st_mode & 0o777 == 0o644  # what open() gives, not mkstemp's 0600
        q = tmp_path / "old.json"
        q.write_text("old")
        q.chmod(0o640)
        write_text_atomically(q, "new")
        assert q.stat().st_mode & 0o777 == 0o640 and q.read_text() == "new"
    finally:
        os.umask(old)


def test_a_symlink_is_written_through_not_replaced(tmp_path):
    real = tmp_path / "a.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_text_atomically(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
