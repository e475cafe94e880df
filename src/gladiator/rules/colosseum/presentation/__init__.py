"""What front ends show: the scene, the text rendering and the glossary."""
