import os, pytest
from pathlib import Path
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
