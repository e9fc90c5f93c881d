import json
import os
import shutil
import struct
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dcc_blender.import_references import check_import, references  # noqa: E402
from dcc_blender.policy import Policy, PolicyRefusal  # noqa: E402


class ImportReferences(unittest.TestCase):
    def setUp(self):
        self.root = os.path.realpath(tempfile.mkdtemp(prefix="dcc-import-"))
        self.data = os.path.join(self.root, "data")
        os.makedirs(os.path.join(self.data, "sub"))
        self.policy = Policy(self.data)

    def tearDown(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.data, name)
        with open(path, "wb") as handle:
            handle.write(text if isinstance(text, bytes) else text.encode("utf8"))
        return path

    def refused(self, path, where):
        with self.assertRaises(PolicyRefusal) as caught:
            check_import(self.policy, "test.import", path)
        self.assertEqual(caught.exception.rule, "import-references")
        self.assertIn(where, caught.exception.message)

    def test_gltf_uris(self):
        document = {"buffers": [{"uri": "data:application/octet-stream;base64,AAAA"}, {"uri": "a%20b.bin"}], "images": [{"uri": "sub/t.png"}]}
        path = self.write("ok.gltf", json.dumps(document))
        check_import(self.policy, "test.import", path)
        self.assertEqual(references(path), [("buffers[1].uri", "a b.bin"), ("images[0].uri", "sub/t.png")])
        for uri in ("/etc/passwd", "../outside.bin", "file:///etc/passwd", "sub/../../x.bin"):
            self.refused(self.write("bad.gltf", json.dumps({"buffers": [{"uri": uri}]})), "buffers[0].uri")
        self.refused(self.write("bad.gltf", json.dumps({"images": [{"uri": "http://example.com/x.png"}]})), "images[0].uri")

    def test_glb_json_chunk(self):
        chunk = json.dumps({"buffers": [{"uri": "../../x.bin"}]}).encode()
        chunk += b" " * (-len(chunk) % 4)
        body = struct.pack("<I4s", len(chunk), b"JSON") + chunk
        self.refused(self.write("bad.glb", b"glTF" + struct.pack("<II", 2, 12 + len(body)) + body), "buffers[0].uri")

    def test_obj_mtllib_and_maps(self):
        self.write("sub/m.mtl", "newmtl M\nmap_Kd -s 1 1 1 t.png\n")
        check_import(self.policy, "test.import", self.write("ok.obj", "mtllib sub/m.mtl\nv 0 0 0\n"))
        self.refused(self.write("bad.obj", "mtllib ../evil.mtl\n"), "mtllib (line 1)")
        self.write("evil.mtl", "newmtl M\nmap_Kd\t/etc/hostname\n")
        self.refused(self.write("bad.obj", "mtllib evil.mtl\n"), "map_Kd (line 2)")
        self.write("evil.mtl", "newmtl M\nbump -bm 1 ../../x.png\n")
        self.refused(self.write("bad.obj", "mtllib evil.mtl\n"), "bump (line 2)")

    def test_collada_x3d_usd(self):
        self.refused(self.write("bad.dae", '<COLLADA><library_images><image><init_from>file:///etc/x.png</init_from></image></library_images></COLLADA>'), "init_from")
        self.refused(self.write("bad.x3d", '<X3D><Scene><ImageTexture url=\'"../../x.png"\'/></Scene></X3D>'), "url")
        self.refused(self.write("bad.wrl", '#VRML V2.0 utf8\nInline { url [ "ok.wrl" "/etc/x.wrl" ] }\n'), "url")
        self.refused(self.write("bad.usda", "#usda 1.0\ndef X (references = @/etc/x.usda@) {}\n"), "asset path")
        self.refused(self.write("bin.usdc", b"PXR-USDC" + b"\0" * 8), "binary USD")
        check_import(self.policy, "test.import", self.write("ok.usda", "#usda 1.0\ndef X (references = @sub/x.usda@) {}\n"))

    def test_formats_without_references_pass(self):
        check_import(self.policy, "test.import", self.write("x.ply", "ply\n/etc/passwd\n"))


if __name__ == "__main__":
    unittest.main()
